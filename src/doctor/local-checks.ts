import fs from 'node:fs';
import path from 'node:path';
import type { RunProgram } from '../context.js';
import { readHistory } from '../history/log.js';
import type { HistoryRecord } from '../history/record.js';
import { otherWatcher } from '../poll/watch-marker.js';
import { findEntry } from '../schedule/cron.js';
import { StateError } from '../errors.js';
import { readRegularFile } from '../state/regular-file.js';
import { type Check, fail, ok, warn } from './check.js';

const SUPPORTED = [20, 19] as const;

export function nodeCheck(version: string): Check {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  const supported = major > SUPPORTED[0] || (major === SUPPORTED[0] && minor >= SUPPORTED[1]);
  return supported
    ? ok('node', `Node ${version} (${SUPPORTED.join('.')} or later is supported)`)
    : fail(
        'node',
        `Node ${version} is older than ${SUPPORTED.join('.')}`,
        'install Node 20.19 or later (22 and 24 work too)',
      );
}

/** A lock left by a run that is gone: harmless (the next run takes it over), but worth knowing about. */
export function lockCheck(configDir: string, isAlive: (pid: number) => boolean): Check {
  let text: string;
  try {
    const found = readRegularFile(path.join(configDir, 'lock'), 'the lock file');
    if (!found) return ok('lock', 'no run holds the lock');
    text = found.text;
  } catch (error) {
    // Every run would stop at it: a FIFO, a directory, a symbolic link, a file this user may not read.
    if (error instanceof StateError) return fail('lock', error.message, error.hint);
    throw error;
  }
  const holder = safeJson(text) as { pid?: unknown; startedAt?: unknown } | undefined;
  const pid = typeof holder?.pid === 'number' ? holder.pid : undefined;
  const since = typeof holder?.startedAt === 'string' ? ` since ${holder.startedAt}` : '';
  if (pid !== undefined && isAlive(pid)) return ok('lock', `a run is in progress (pid ${pid}${since})`);
  return warn(
    'lock',
    `a lock is left by a run that is gone (pid ${pid ?? 'unknown'}${since})`,
    'nothing: the next run takes it over',
  );
}

export function pauseCheck(rateLimitedUntil: string | undefined, now: number): Check {
  const until = Date.parse(rateLimitedUntil ?? '');
  if (!Number.isFinite(until) || until <= now) return ok('rate limit', 'no pause pending');
  return warn(
    'rate limit',
    `the service asked for a pause: nothing is sent until ${rateLimitedUntil}`,
    'nothing: runs resume by themselves',
  );
}

/** The crontab entry `agent schedule --install` writes for this config dir, and whether what it runs exists. */
export async function scheduleCheck(
  configDir: string,
  run: RunProgram,
  { configHome, watching }: { configHome: string | undefined; watching: boolean },
): Promise<Check> {
  const listed = await run('crontab', ['-l']);
  const entry = listed.status === 0 ? findEntry(listed.stdout, configDir) : undefined;
  if (entry) {
    const [node, script] = (entry.replace(/^(\S+\s+){5}/, '').match(/'(?:[^']|'\\'')*'|\S+/g) ?? []).map(unquote);
    const missing = [node, script].filter((file): file is string => !file || !fs.existsSync(file));
    if (missing.length) {
      return fail(
        'schedule',
        `the crontab entry runs ${missing.join(' and ')}, which is not there any more`,
        'run "agent schedule --install" again with the node and agent you use now',
      );
    }
    return ok('schedule', `cron runs ${script} with ${node} for this config dir`);
  }
  const units = configHome ? path.join(configHome, 'systemd', 'user') : undefined;
  const unit =
    units && fs.existsSync(units)
      ? fs.readdirSync(units).find((name) => name.startsWith('prediction-agent-poll-') && name.endsWith('.timer'))
      : undefined;
  if (unit) return ok('schedule', `a systemd user timer is installed (${unit})`);
  if (watching) return ok('schedule', 'no crontab entry or timer: the watcher polls this config dir');
  const why = listed.missing ? 'there is no crontab program here' : 'no crontab entry for this config dir';
  return warn('schedule', `nothing runs agent poll on a schedule (${why})`, 'agent schedule --install');
}

/** A `poll --watch` on this config dir, if one runs: polling, or overdue (stopped with Ctrl-Z, or stuck). */
export function watchCheck(
  configDir: string,
  { isAlive, self, now }: { isAlive: (pid: number) => boolean; self: number; now: number },
): Check | undefined {
  const seen = otherWatcher(configDir, { isAlive, self, now });
  if (!seen) return undefined;
  const { pid, startedAt } = seen.watcher;
  if (!seen.overdue)
    return ok('watcher', `poll --watch (pid ${pid}, since ${startedAt}) polls; its next cycle by ${seen.dueBy}`);
  return fail(
    'watcher',
    `poll --watch (pid ${pid}, since ${startedAt}) should have polled by ${seen.dueBy} and has not; cron polls do its work meanwhile, if there are any`,
    // Without /proc the pid may be another process's by now: no signal is advised for it unchecked.
    seen.verified
      ? `kill -CONT ${pid} if it was stopped (Ctrl-Z), or end it (kill ${pid}) and start it again`
      : `check that pid ${pid} is agent poll --watch (ps -p ${pid} -o args) before signalling it`,
  );
}

/** The last poll the history recorded: when, and how it ended. */
export function lastPollCheck(configDir: string, now: number): Check {
  let records: HistoryRecord[];
  try {
    records = readHistory(configDir).records;
  } catch (error) {
    return warn('last poll', `the history cannot be read (${(error as NodeJS.ErrnoException).code ?? error})`);
  }
  const last = records.findLast((r) => r.kind === 'run' && r.summary?.command === 'poll');
  if (!last?.summary) return warn('last poll', 'no poll is recorded yet', 'agent poll (or agent schedule --install)');
  const ago = describeAgo(now - Date.parse(last.ts));
  const s = last.summary;
  const what = `${s.posted} posted, ${s.skipped} skipped, ${s.failed} failed, exit ${s.exitCode}`;
  if (s.exitCode !== 0) {
    return fail(
      'last poll',
      `${ago}: ${what}${s.error ? `: ${s.error}` : ''}`,
      'agent poll -v shows what goes wrong; agent history shows the runs',
    );
  }
  if (now - Date.parse(last.ts) > 60 * 60_000)
    return warn(
      'last poll',
      `${ago}: ${what}; none since`,
      'check the schedule (agent schedule) and the log it writes',
    );
  return ok('last poll', `${ago}: ${what}`);
}

function describeAgo(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  if (minutes < 1) return 'just now';
  if (minutes < 120) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  return hours < 48 ? `${hours} h ago` : `${Math.round(hours / 24)} days ago`;
}

function unquote(word: string): string {
  return word.startsWith("'") ? word.slice(1, -1).replaceAll(`'\\''`, "'") : word;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
