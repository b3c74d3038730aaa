import fs from 'node:fs';
import path from 'node:path';
import { parseCommandLine } from '../analysis/command/command-line.js';
import type { Context } from '../context.js';
import { StateError, UsageError } from '../errors.js';

/**
 * `config set analyzer.command`: the line must split into a program and its arguments (no shell will
 * run it), and a program given by path must be there and executable, so cron does not find out first.
 */
export function checkCommandLine(raw: string, ctx: Context): string {
  const line = raw.trim();
  const argv = parseCommandLine(line);
  const [program] = argv;
  refuseWritableFiles(argv);
  if (program === undefined) throw new UsageError('analyzer.command is empty');
  if (!program.includes('/')) {
    // Cron runs with PATH=/usr/bin:/bin: a program found in a login shell's PATH may not be found there.
    ctx.output.warn(`note: cron runs with a minimal PATH; if ${program} is not in /usr/bin or /bin, give its full path`);
    return line;
  }
  const file = path.resolve(program);
  try {
    fs.accessSync(file, fs.constants.X_OK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(code === 'ENOENT' ? `${file} does not exist` : `${file} is not executable`, {
      hint: code === 'ENOENT' ? 'give the full path of the program' : `chmod +x it, or run it through its interpreter, e.g. "/usr/bin/node ${file}"`,
    });
  }
  refuseWritableProgram(file);
  if (!path.isAbsolute(program)) ctx.output.warn(`note: ${program} is relative; cron runs from your home directory, so give the full path ${file}`);
  return line;
}

/** The program and any script given by absolute path (`/usr/bin/node /home/me/mine.mjs`). */
export function refuseWritableFiles(argv: readonly string[]): void {
  for (const arg of argv) if (path.isAbsolute(arg)) refuseWritableProgram(arg);
}

/**
 * Every cron run executes this program: one that other users can change is refused, like a config.json
 * they could change (S2). Checked at `config set` and again before each run uses it.
 */
export function refuseWritableProgram(file: string): void {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch {
    return; // not there: the analyser reports it when it cannot start it
  }
  if (!stat.isFile() || (stat.mode & 0o022) === 0) return;
  throw new StateError(`the analyser program ${file} has mode ${(stat.mode & 0o777).toString(8)}: other users could change what every run executes`, 'exposed', {
    hint: `run: chmod go-w '${file}'`,
  });
}
