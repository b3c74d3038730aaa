import { pausedUntil } from '../../http/pause.js';
import path from 'node:path';
import { otherWatcher } from '../../poll/watch-marker.js';
import { readRegularFile } from '../../state/regular-file.js';
import { fail, failedCheck, ok, type Verdict, warn } from './check.js';

const SUPPORTED = [20, 19] as const;

export function nodeCheck(version: string): Verdict {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  const supported = major > SUPPORTED[0] || (major === SUPPORTED[0] && minor >= SUPPORTED[1]);
  return supported
    ? ok(`Node ${version} (${SUPPORTED.join('.')} or later is supported)`)
    : fail(`Node ${version} is older than ${SUPPORTED.join('.')}`, 'install Node 20.19 or later (22 and 24 work too)');
}

/** A lock left by a run that is gone: harmless (the next run takes it over), but worth knowing about. */
export function lockCheck(configDir: string, isAlive: (pid: number) => boolean): Verdict {
  let text: string;
  try {
    const found = readRegularFile(path.join(configDir, 'lock'), 'the lock file');
    if (!found) return ok('no run holds the lock');
    text = found.text;
  } catch (error) {
    // Every run would stop at it: a FIFO, a directory, a symbolic link, a file this user may not read.
    return failedCheck(error);
  }
  const holder = safeJson(text) as { pid?: unknown; startedAt?: unknown } | undefined;
  const pid = typeof holder?.pid === 'number' ? holder.pid : undefined;
  const since = typeof holder?.startedAt === 'string' ? ` since ${holder.startedAt}` : '';
  if (pid !== undefined && isAlive(pid)) return ok(`a run is in progress (pid ${pid}${since})`);
  return warn(
    `a lock is left by a run that is gone (pid ${pid ?? 'unknown'}${since})`,
    'nothing: the next run takes it over',
  );
}

export function pauseCheck(rateLimitedUntil: string | undefined, now: number): Verdict {
  if (pausedUntil({ rateLimitedUntil }, now) === undefined) return ok('no pause pending');
  return warn(
    `the service asked for a pause: nothing is sent until ${rateLimitedUntil}`,
    'nothing: runs resume by themselves',
  );
}

/** A `poll --watch` on this config dir, if one runs: polling, or overdue (stopped with Ctrl-Z, or stuck). */
export function watchCheck(
  configDir: string,
  { isAlive, self, now, procRoot }: { isAlive: (pid: number) => boolean; self: number; now: number; procRoot?: string },
): Verdict | undefined {
  const seen = otherWatcher(configDir, { isAlive, self, now, ...(procRoot ? { procRoot } : {}) });
  if (!seen) return undefined;
  const { pid, startedAt, intervalMs } = seen.watcher;
  if (!seen.overdue) {
    // The next cycle comes an interval after the latest began (and once that one is done); the overdue time
    // adds the longest a cycle may take, which is not when to expect it.
    const next =
      intervalMs === undefined
        ? ''
        : `, the next about ${new Date(Date.parse(seen.cycleAt) + intervalMs).toISOString()} once that one is done`;
    return ok(
      `poll --watch (pid ${pid}, since ${startedAt}) polls: its latest cycle began at ${seen.cycleAt}${next} (overdue after ${seen.dueBy})`,
    );
  }
  return fail(
    `poll --watch (pid ${pid}, since ${startedAt}) should have polled by ${seen.dueBy} and has not; cron polls do its work meanwhile, if there are any`,
    // Without /proc the pid may be another process's by now: no signal is advised for it unchecked.
    seen.verified
      ? `kill -CONT ${pid} if it was stopped (Ctrl-Z), or end it (kill ${pid}) and start it again`
      : `check that pid ${pid} is agent poll --watch (ps -p ${pid} -o args) before signalling it`,
  );
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
