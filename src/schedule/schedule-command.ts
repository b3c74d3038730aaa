import fs from 'node:fs';
import path from 'node:path';
import { type Context, type RunProgram, stateStore } from '../context.js';
import { NotRegisteredError, SetupError, UsageError } from '../errors.js';
import { oneLine } from '../output/sanitize.js';
import {
  commandLength,
  cronLine,
  findEntry,
  LOG_LIMIT_KIB,
  MAX_COMMAND_CHARS,
  uncarriable,
  withEntry,
  withoutEntry,
} from './cron.js';
import type { PollCommand } from './shell.js';
import { systemdUnits, unitName } from './systemd.js';

export interface ScheduleOptions {
  install?: boolean;
  remove?: boolean;
  every?: string;
  log?: string;
  systemd?: boolean;
}

/** `agent schedule`: prints, installs or removes what runs `agent poll` every few minutes (docs/cli.md). */
export async function runSchedule(options: ScheduleOptions, ctx: Context): Promise<void> {
  const every = parseEvery(options.every);
  if (options.install && options.remove) throw new UsageError('--install and --remove cannot go together');
  if (options.systemd && options.log !== undefined) {
    throw new UsageError('--log is for cron; with --systemd the output goes to the journal', {
      hint: 'leave out --log (journalctl --user -u <unit> shows it)',
    });
  }
  if (!ctx.self || !ctx.runProgram) throw new Error('bug: schedule needs the running program and a runner');
  const command: PollCommand = { ...ctx.self, configDir: path.resolve(ctx.configDir) };
  const action = options.install ? 'install' : options.remove ? 'remove' : 'print';
  // A schedule before a registration would fail every few minutes into a log nobody reads.
  if (action === 'install' && stateStore(ctx).read() === undefined) {
    throw new NotRegisteredError(`no agent is registered in ${command.configDir}`, {
      hint: 'run "agent register" first, then schedule its polls',
    });
  }
  const log = path.resolve(options.log ?? path.join(command.configDir, 'poll.log'));
  // Removing writes nothing of these paths into the table: only what installs or shows a line is refused.
  if (action !== 'remove') refuseUncarriable(command, options.systemd ? undefined : log, !options.systemd);
  if (options.systemd) return systemd(action, command, every, ctx, ctx.runProgram);
  return cron(action, cronLine(command, every, log), { command, every, log }, ctx, ctx.runProgram);
}

/**
 * Refuses, before the table or a unit is touched, a path the line would not carry as it is: the config dir
 * and the log are the user's to choose (exit 2), node and the script where they were installed (exit 1).
 */
function refuseUncarriable(command: PollCommand, log: string | undefined, cron: boolean): void {
  const where = cron ? 'a crontab line' : 'a systemd unit';
  const paths: Array<[what: string, path: string | undefined, Refusal: typeof UsageError | typeof SetupError]> = [
    ['the config dir', command.configDir, UsageError],
    ['the log', log, UsageError],
    ['the node binary', command.node, SetupError],
    ["the agent's script", command.script, SetupError],
  ];
  for (const [what, file, Refusal] of paths) {
    // systemd's own quoting takes a "%"; a control character it could not.
    const problem = file === undefined ? undefined : uncarriable(cron ? file : file.replaceAll('%', ''));
    if (problem) {
      throw new Refusal(
        `${what} ${JSON.stringify(file)} holds ${problem}, which ${where} cannot carry: nothing was changed`,
        {
          hint: `use paths without ${cron ? 'newlines, carriage returns, other control characters or "%"' : 'control characters'}`,
        },
      );
    }
  }
}

function parseEvery(raw: string | undefined): number {
  if (raw === undefined) return 5;
  const n = Number(raw);
  if (!/^\d+$/.test(raw.trim()) || n < 1 || n > 59) {
    throw new UsageError(
      `--every must be a whole number of minutes from 1 to 59 (got ${JSON.stringify(oneLine(raw, 20))})`,
    );
  }
  return n;
}

async function cron(
  action: 'print' | 'install' | 'remove',
  line: string,
  { command, every, log }: { command: PollCommand; every: number; log: string },
  ctx: Context,
  run: RunProgram,
): Promise<void> {
  const what = `every ${every} minute${every === 1 ? '' : 's'}, output appended to ${log} (moved to ${log}.1 past ${LOG_LIMIT_KIB} KiB)`;
  if (action === 'print') {
    const installed = findEntry((await readCrontab(run, false)) ?? '', command.configDir) === line;
    ctx.output.result(line, { kind: 'cron', entry: line, installed });
    ctx.output.progress(
      installed
        ? 'agent: this entry is installed'
        : `agent: "agent schedule --install" adds it to your crontab: ${what}`,
    );
    return;
  }
  const current = (await readCrontab(run, true)) ?? '';
  if (action === 'install') {
    // The paths appear several times in the line; deep ones can pass cron's limit, and crontab would then
    // refuse the whole table with a line number the user never wrote.
    if (commandLength(line) > MAX_COMMAND_CHARS) {
      throw new SetupError(
        `the crontab entry would be ${commandLength(line)} characters long; cron takes at most ${MAX_COMMAND_CHARS}`,
        { hint: 'use a config dir (and --log) with a shorter path, or --systemd' },
      );
    }
    const next = withEntry(current, command.configDir, line);
    if (next !== current) await writeCrontab(run, next);
    fs.mkdirSync(path.dirname(log), { recursive: true });
    ctx.output.result([`Scheduled in your crontab: agent poll ${what}.`, line], {
      kind: 'cron',
      entry: line,
      installed: true,
    });
    return;
  }
  const { text, removed } = withoutEntry(current, command.configDir);
  if (removed !== 'nothing') await writeCrontab(run, text);
  ctx.output.result(
    {
      entry: `Removed the crontab entry for ${command.configDir}.`,
      marker: `Removed the marker line for ${command.configDir}; the line below it was not its entry and was kept.`,
      nothing: `No crontab entry for ${command.configDir}; nothing changed.`,
    }[removed],
    {
      kind: 'cron',
      entry: line,
      installed: false,
    },
  );
}

const NO_CRONTAB = new SetupError('there is no crontab program on this machine', {
  hint: 'install cron (Debian, Ubuntu: sudo apt-get install cron), or use --systemd',
});

/** The user's crontab; "" when they have none. `required`: no crontab program is an error, not "none". */
async function readCrontab(run: RunProgram, required: boolean): Promise<string | undefined> {
  const listed = await run('crontab', ['-l']);
  if (listed.missing) {
    if (required) throw NO_CRONTAB;
    return undefined;
  }
  if (listed.status === 0) return listed.stdout;
  if (/no crontab for/i.test(listed.stderr)) return '';
  throw new SetupError(`crontab -l failed: ${oneLine(listed.stderr, 200) || `exit ${listed.status}`}`);
}

async function writeCrontab(run: RunProgram, text: string): Promise<void> {
  const written = await run('crontab', ['-'], text);
  if (written.missing) throw NO_CRONTAB;
  if (written.status !== 0)
    throw new SetupError(`crontab refused the new table: ${oneLine(written.stderr, 200) || `exit ${written.status}`}`);
}

async function systemd(
  action: 'print' | 'install' | 'remove',
  command: PollCommand,
  every: number,
  ctx: Context,
  run: RunProgram,
): Promise<void> {
  const home = ctx.env.HOME;
  const configHome = ctx.env.XDG_CONFIG_HOME || (home ? path.join(home, '.config') : undefined);
  if (!configHome) throw new SetupError('neither XDG_CONFIG_HOME nor HOME is set: there is no place for user units');
  const dir = path.join(configHome, 'systemd', 'user');
  const name = unitName(command.configDir);
  const files = { service: path.join(dir, `${name}.service`), timer: path.join(dir, `${name}.timer`) };
  const units = systemdUnits(command, every);
  const entry = `# ${files.service}\n${units.service}\n# ${files.timer}\n${units.timer}`;
  if (action === 'print') {
    const installed = fs.existsSync(files.timer) && fs.readFileSync(files.timer, 'utf8') === units.timer;
    ctx.output.result(entry.trimEnd(), { kind: 'systemd', entry, installed });
    ctx.output.progress(`agent: "agent schedule --systemd --install" writes these two units and starts the timer`);
    return;
  }
  const systemctl = async (...args: string[]) => {
    const done = await run('systemctl', ['--user', ...args]);
    if (done.missing)
      throw new SetupError('there is no systemctl on this machine', {
        hint: 'use cron instead: agent schedule --install',
      });
    return done;
  };
  // Before anything is written: a machine without a user session manager would get units nobody runs.
  const probe = await systemctl('show-environment');
  if (probe.status !== 0) {
    throw new SetupError(
      `there is no user systemd here (systemctl --user: ${oneLine(probe.stderr, 160) || `exit ${probe.status}`})`,
      {
        hint: 'use cron instead: agent schedule --install',
      },
    );
  }
  if (action === 'install') {
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(files.service, units.service);
    fs.writeFileSync(files.timer, units.timer);
    await mustSucceed(systemctl('daemon-reload'), 'daemon-reload');
    await mustSucceed(systemctl('enable', '--now', `${name}.timer`), `enable --now ${name}.timer`);
    ctx.output.result(
      [
        `Scheduled with systemd: ${name}.timer runs agent poll every ${every} minutes.`,
        `Its output: journalctl --user -u ${name}`,
      ],
      {
        kind: 'systemd',
        entry,
        installed: true,
      },
    );
    return;
  }
  // Not enabled, or already gone: the files are what is left to remove.
  await systemctl('disable', '--now', `${name}.timer`);
  const existed = fs.existsSync(files.timer) || fs.existsSync(files.service);
  fs.rmSync(files.timer, { force: true });
  fs.rmSync(files.service, { force: true });
  await mustSucceed(systemctl('daemon-reload'), 'daemon-reload');
  ctx.output.result(
    existed ? `Removed ${name}.timer and ${name}.service.` : `No units for ${command.configDir}; nothing changed.`,
    {
      kind: 'systemd',
      entry,
      installed: false,
    },
  );
}

async function mustSucceed(done: ReturnType<RunProgram>, what: string): Promise<void> {
  const { status, stderr } = await done;
  if (status !== 0)
    throw new SetupError(`systemctl --user ${what} failed: ${oneLine(stderr, 200) || `exit ${status}`}`);
}
