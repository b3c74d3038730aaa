import { accessSync, constants, existsSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { type CommandSetting, parseCommandLine } from './command-line.js';
import { exposure, resolvedOrSelf, trustedHere } from './program-path.js';
import { StateError, UsageError } from '../../errors.js';

/** Where cron looks for a program named without a path (Debian's cron sets PATH to this). */
export const CRON_PATH = ['/usr/bin', '/bin'];
const SCRIPT_EXTENSION = /\.(?:[cm]?js|[cm]?ts|py|sh|bash|rb|pl|php|jar|r)$/i;

/**
 * An argument that surely names a file: an absolute path, one from `.` or `..`, or a script by its
 * extension; not an option, nor a URL. `org/model` (a model's name) is not one, though it has a slash.
 */
function namesFile(arg: string): boolean {
  if (arg.startsWith('-') || /^[a-z][a-z0-9+.-]*:\/\//i.test(arg)) return false;
  return isAbsolute(arg) || /^\.\.?[/\\]/.test(arg) || SCRIPT_EXTENSION.test(arg);
}

/**
 * `config set analyzer.command` (or `alert.command`): the line must split into a program and its arguments
 * (no shell will run it), and a program given by path must be there and executable, so cron does not find
 * out first. `home` is where cron will run it. An alert command must name its program by absolute path:
 * it is needed most when something is already wrong, not the moment to find it missing from cron's PATH.
 */
export function checkCommandLine(
  raw: string,
  warn: (line: string) => void,
  { home, setting = 'analyzer.command' }: { home?: string; setting?: CommandSetting } = {},
): string {
  const line = raw.trim();
  const argv = parseCommandLine(line, setting);
  const [program] = argv;
  if (setting === 'alert.command' && !isAbsolute(program)) {
    throw new UsageError(`alert.command must name its program by absolute path, not ${JSON.stringify(program)}`, {
      hint: 'e.g. agent config set alert.command "/usr/bin/node /home/me/alert.mjs" (command -v node gives the path)',
    });
  }
  refuseWritableFiles(argv);
  // A script named relative to here would be another file, or none, when cron runs from your home.
  for (const arg of argv.slice(1)) {
    // A relative path to something here is a file too, whatever its name.
    if (isAbsolute(arg) || !(namesFile(arg) || (/[/\\]/.test(arg) && existsSync(arg)))) continue;
    if (existsSync(arg)) {
      refuseWritableProgram(resolve(arg), { program: false });
      warn(
        `note: ${arg} is a relative path; cron runs from your home directory, so give the full path ${resolve(arg)}`,
      );
    } else if (home === undefined || !existsSync(resolve(home, arg))) {
      warn(
        `note: ${arg} does not exist, here or in your home directory (where cron runs the command); give the full path of the file`,
      );
    }
  }
  if (!program.includes('/')) {
    // Cron runs with PATH=/usr/bin:/bin: a program found in a login shell's PATH may not be found there.
    warn(`note: cron runs with a minimal PATH; if ${program} is not in /usr/bin or /bin, give its full path`);
    return line;
  }
  const file = resolve(program);
  try {
    accessSync(file, constants.X_OK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(code === 'ENOENT' ? `${file} does not exist` : `${file} is not executable`, {
      hint:
        code === 'ENOENT'
          ? 'give the full path of the program'
          : `chmod +x it, or run it through its interpreter, e.g. "/usr/bin/node ${file}"`,
    });
  }
  refuseWritableProgram(file);
  if (!isAbsolute(program))
    warn(`note: ${program} is relative; cron runs from your home directory, so give the full path ${file}`);
  return line;
}

/**
 * doctor: the command line as cron will run it, from the home directory and without a shell. Throws a
 * UsageError for the first file it names that is not there (or a program not executable), a StateError for
 * one others could change; gives back what is only doubtful (a program cron's PATH may not hold).
 */
export function checkAsCronRunsIt(raw: string, home: string, setting: CommandSetting = 'analyzer.command'): string[] {
  const argv = parseCommandLine(raw.trim(), setting);
  const [program] = argv;
  const doubts: string[] = [];
  if (program.includes('/')) {
    const file = resolve(home, program);
    try {
      accessSync(file, constants.X_OK);
    } catch (error) {
      const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
      throw new UsageError(`${file} ${missing ? 'does not exist' : 'is not executable'}`, {
        hint: missing ? 'give the full path of the program' : 'chmod +x it, or run it through its interpreter',
      });
    }
    refuseWritableProgram(file);
  } else if (!CRON_PATH.some((dir) => existsSync(resolve(dir, program)))) {
    doubts.push(`cron looks for ${program} in ${CRON_PATH.join(' and ')} only; give its full path`);
  }
  for (const arg of argv.slice(1).filter(namesFile)) {
    const file = resolve(home, arg);
    if (!existsSync(file)) {
      throw new UsageError(`cron runs it from ${home}, where ${arg} is ${file}, which does not exist`, {
        hint: `give the full path of the file: agent config set ${setting} "…"`,
      });
    }
    refuseWritableProgram(file, { program: false });
  }
  return doubts;
}

/** The program and any script given by path (`/usr/bin/node /home/me/mine.mjs`). */
export function refuseWritableFiles(argv: readonly string[]): void {
  argv.forEach((arg, i) => {
    if (isAbsolute(arg)) refuseWritableProgram(arg, { program: i === 0 });
  });
}

/**
 * Every cron run executes this program: one that another user could change or swap (its mode, its owner,
 * a FIFO in its place, a link or a directory on its way that others can write to, or a name not there yet
 * where others can create it) is refused, like a config.json they could change (key-at-rest). Checked at
 * `config set`, by doctor, and again before each run uses it.
 */
export function refuseWritableProgram(file: string, { program = true } = {}): void {
  const trusted = trustedHere();
  if (!trusted) return;
  const found = exposure(file, trusted, { program });
  if (!found) return;
  const resolved = resolvedOrSelf(file);
  const shown = resolved === resolve(file) ? file : `${file} (a link to ${resolved})`;
  throw new StateError(
    `the ${program ? 'program' : 'file'} ${shown} ${found.why}: other users could change what every run executes`,
    'exposed',
    { hint: found.hint },
  );
}
