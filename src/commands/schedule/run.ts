import fs from 'node:fs';
import path from 'node:path';
import type { Context, RunProgram } from '../../context.js';
import { stateStore } from '../../session.js';
import { userPath } from '../../domain/home-path.js';
import { NotRegisteredError, SetupError, UsageError } from '../../errors.js';
import { agentCommand } from '../../output/command-hint.js';
import { LOG_LIMIT_BYTES } from '../../output/log-file.js';
import { oneLine } from '../../output/sanitize.js';
import { shellWord } from '../../output/shell-word.js';
import { refuseUncarriable } from '../../schedule/carriable.js';
import {
  commandLength,
  cronLine,
  entrySettings,
  findEntry,
  MAX_COMMAND_CHARS,
  withEntry,
  withoutEntry,
} from '../../schedule/cron.js';
import { readCrontab, writeCrontab } from '../../schedule/crontab-program.js';
import type { PollCommand } from '../../schedule/shell.js';
import { scheduleSystemd } from '../../schedule/systemd-schedule.js';

export interface ScheduleOptions {
  install?: boolean;
  remove?: boolean;
  every?: string;
  log?: string;
  systemd?: boolean;
}

/** `agent schedule`: prints, installs or removes what runs `agent poll` every few minutes (docs/cli.md). */
export async function runSchedule(ctx: Context, flags: ScheduleOptions): Promise<void> {
  const options = { ...flags, log: flags.log === undefined ? undefined : userPath(flags.log, ctx.env.HOME) };
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
      hint: `run "${agentCommand(ctx, 'register')}" first, then schedule its polls`,
    });
  }
  if (options.systemd) return scheduleSystemd(action, command, { every }, ctx, ctx.runProgram);
  const log = options.log === undefined ? undefined : path.resolve(options.log);
  return scheduleCron(action, command, { every, log }, ctx, ctx.runProgram);
}

function parseEvery(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!/^\d+$/.test(raw.trim()) || n < 1 || n > 59) {
    throw new UsageError(
      `--every must be a whole number of minutes from 1 to 59 (got ${JSON.stringify(oneLine(raw, 20))})`,
    );
  }
  return n;
}

/**
 * The crontab side. What is not given is kept from the entry installed for this config dir (its interval,
 * its log), else the defaults: showing the entry, or installing it again with a newer node, never changes
 * how often it polls.
 */
async function scheduleCron(
  action: 'print' | 'install' | 'remove',
  command: PollCommand,
  given: { every: number | undefined; log: string | undefined },
  ctx: Context,
  run: RunProgram,
): Promise<void> {
  // Removing writes nothing of these paths into the table: only what shows or installs a line refuses them.
  if (action !== 'remove') refuseUncarriable({ command, log: given.log }, 'cron');
  const table = (await readCrontab(run, action !== 'print')) ?? '';
  const installed = findEntry(table, command.configDir);
  const kept = installed === undefined ? { every: undefined, log: undefined } : entrySettings(installed);
  const every = given.every ?? kept.every ?? 5;
  const log = given.log ?? kept.log ?? path.join(command.configDir, 'poll.log');
  if (action !== 'remove') refuseUncarriable({ log }, 'cron');
  const line = cronLine(command, every, log);
  const what = `every ${every} minute${every === 1 ? '' : 's'}, its output appended to ${log} with the time on each line (moved to ${log}.1 past ${LOG_LIMIT_BYTES / 1024} KiB)`;
  if (action === 'print') {
    ctx.output.result(line, {
      kind: 'cron',
      entry: line,
      installed: installed !== undefined,
      interval: kept.every ?? null,
    });
    const install = installCommand(ctx, given);
    if (installed === undefined)
      ctx.output.progress(`agent: not installed; "${install}" adds it to your crontab: ${what}`);
    else if (installed === line) ctx.output.progress(`agent: installed: ${what}`);
    else {
      ctx.output.progress(`agent: installed for this config dir, every ${kept.every ?? '?'} minutes: ${installed}`);
      ctx.output.progress(`agent: "${install}" replaces it with the line shown first: ${what}`);
    }
    return;
  }
  if (action === 'install') {
    // The paths appear several times in the line; deep ones can pass cron's limit, and crontab would then
    // refuse the whole table with a line number the user never wrote.
    if (commandLength(line) > MAX_COMMAND_CHARS) {
      throw new SetupError(
        `the crontab entry would be ${commandLength(line)} characters long; cron takes at most ${MAX_COMMAND_CHARS}`,
        { hint: 'use a config dir (and --log) with a shorter path, or --systemd' },
      );
    }
    const next = withEntry(table, command.configDir, line);
    if (next !== table) await writeCrontab(run, next);
    fs.mkdirSync(path.dirname(log), { recursive: true });
    ctx.output.result([`Scheduled in your crontab: agent poll ${what}.`, line], {
      kind: 'cron',
      entry: line,
      installed: true,
      interval: every,
    });
    return;
  }
  const { text, removed } = withoutEntry(table, command.configDir);
  if (removed !== 'nothing') await writeCrontab(run, text);
  ctx.output.result(
    {
      entry: `Removed the crontab entry for ${command.configDir}.`,
      marker: `Removed the marker line for ${command.configDir}; the line below it was not its entry and was kept.`,
      nothing: `No crontab entry for ${command.configDir}; nothing changed.`,
    }[removed],
    { kind: 'cron', entry: line, installed: false, interval: null },
  );
}

/** The command that installs what was shown: for this config dir, with the flags given, so that it installs just that. */
function installCommand(ctx: Context, given: { every: number | undefined; log: string | undefined }): string {
  const every = given.every === undefined ? '' : ` --every ${given.every}`;
  const log = given.log === undefined ? '' : ` --log ${shellWord(given.log)}`;
  return agentCommand(ctx, `schedule --install${every}${log}`);
}
