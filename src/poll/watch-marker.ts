import fs from 'node:fs';
import path from 'node:path';
import { writePrivateFile } from '../state/private-file.js';
import { notRegular, readRegularFile } from '../state/regular-file.js';
import { hasProc, identify, isWatchCommand, PROC } from './process-identity.js';
import { MAX_OVERDUE_MS } from './watch-limits.js';

/**
 * While a watcher lives it names itself here, so that a cron poll on the same config dir leaves it the work.
 * The file's modification time is when its latest cycle began: touched each cycle (one system call, ~30
 * times cheaper than writing the file anew, which the bench's idle cycle would notice).
 */
const MARKER = 'watch';

export interface Watcher {
  pid: number;
  startedAt: string;
  /**
   * A cycle begins at most this long after the one before (its interval plus a cycle's longest run). A
   * watcher whose process lives but is past it (stopped with Ctrl-Z or SIGSTOP, or stuck) polls nothing:
   * cron must not leave the work to it.
   */
  overdueAfterMs: number;
  /** The pause between its cycles: the next begins about this long after the latest one began. */
  intervalMs?: number;
  /** The process's start as /proc shows it (process-identity.ts); absent where there is no /proc. */
  startTime?: string;
  /**
   * The config dir it polls, as device and inode (dirIdentity): a marker copied into another dir (cp -a
   * of a config dir) names a watcher that polls a different one, and must not silence that dir's cron.
   */
  dirId?: string;
}

/** What tells a config dir apart from every other on this machine, whatever path it is reached by. */
export function dirIdentity(dir: string): string | undefined {
  try {
    const { dev, ino } = fs.statSync(dir);
    return `${dev}:${ino}`;
  } catch {
    return undefined;
  }
}

/** Another watcher as a poll or a second watcher finds it: its marker, and when its next cycle was due. */
export interface WatcherSeen {
  watcher: Watcher;
  /** When its latest cycle began (the marker's time). */
  cycleAt: string;
  dueBy: string;
  overdue: boolean;
  /**
   * Its pid is known to be that watcher (its start time and command line under /proc). False where
   * there is no /proc: the pid is trusted for being alive, and for no longer than the capped window.
   */
  verified: boolean;
}

/** How far ahead of this clock a marker's time may be (a clock set back a little); beyond, it is forged. */
const MARKER_SKEW_MS = 60_000;

/**
 * Atomic and private, as the state file is written (a temp file renamed into place): a reader never sees
 * half a marker, and whatever stood there (a symbolic link, a FIFO) is replaced, never written through.
 */
export function writeWatchMarker(dir: string, watcher: Watcher, now: number): void {
  const file = path.join(dir, MARKER);
  try {
    writePrivateFile(file, JSON.stringify(watcher));
  } catch (error) {
    const code = ((error as { cause?: NodeJS.ErrnoException }).cause ?? (error as NodeJS.ErrnoException)).code;
    if (code === 'EISDIR') throw notRegular(file, "the watcher's marker", 'a directory');
    throw error;
  }
  fs.lutimesSync(file, now / 1000, now / 1000);
}

/** At each cycle's start. Written anew if it is gone (a watcher that took over from this one removed it). */
export function touchWatchMarker(dir: string, watcher: Watcher, now: number): void {
  try {
    // lutimes: a symbolic link put in its place meanwhile is not followed (it fails, and is replaced below).
    const file = path.join(dir, MARKER);
    if (!fs.lstatSync(file).isFile()) throw new Error('not the marker');
    fs.lutimesSync(file, now / 1000, now / 1000);
  } catch {
    writeWatchMarker(dir, watcher, now);
  }
}

export function removeWatchMarker(dir: string, pid: number): void {
  // Only its own: a second watcher started later may have written its pid over it.
  if (readWatchMarker(dir)?.watcher.pid === pid) fs.rmSync(path.join(dir, MARKER), { force: true });
}

/** The watcher that wrote the marker, and when its latest cycle began, if the marker is there and well-formed. */
export function readWatchMarker(dir: string): { watcher: Watcher; cycleAt: number } | undefined {
  try {
    // Only a regular file, never waited on (a FIFO) nor followed (a link): anything else names nobody.
    const found = readRegularFile(path.join(dir, MARKER), "the watcher's marker");
    if (!found) return undefined;
    const cycleAt = found.mtimeMs;
    const value: unknown = JSON.parse(found.text);
    if (typeof value !== 'object' || value === null) return undefined;
    const { pid, startedAt, overdueAfterMs, intervalMs, startTime, dirId } = value as Record<string, unknown>;
    return typeof pid === 'number' &&
      Number.isInteger(pid) &&
      typeof startedAt === 'string' &&
      typeof overdueAfterMs === 'number' &&
      overdueAfterMs > 0 &&
      (intervalMs === undefined || (typeof intervalMs === 'number' && intervalMs > 0)) &&
      (startTime === undefined || typeof startTime === 'string') &&
      (dirId === undefined || typeof dirId === 'string')
      ? {
          watcher: {
            pid,
            startedAt,
            overdueAfterMs,
            ...(intervalMs === undefined ? {} : { intervalMs }),
            ...(startTime === undefined ? {} : { startTime }),
            ...(dirId === undefined ? {} : { dirId }),
          },
          cycleAt,
        }
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Another watcher whose process still runs, and whether it is overdue. The marker is believed only as far
 * as it can be checked, since it silences cron: a pid above 1 that is alive and, where there is a /proc,
 * is the very process that wrote it (its start time) and runs `poll --watch` (its command line), so that
 * a marker left by a watcher that was killed (kill -9, a reboot), whose pid now belongs to another
 * process, names nobody; so does one that names another config dir (copied). A marker dated ahead of the clock names nobody, and none is trusted for longer
 * than the longest interval plus a cycle (MAX_OVERDUE_MS).
 */
export function otherWatcher(
  dir: string,
  {
    isAlive,
    self,
    now,
    procRoot = PROC,
  }: { isAlive: (pid: number) => boolean; self: number; now: number; procRoot?: string },
): WatcherSeen | undefined {
  const found = readWatchMarker(dir);
  if (!found) return undefined;
  const { watcher, cycleAt } = found;
  // 0 and below name no process (kill(-1) reaches every process), and 1 is init, never a watcher.
  if (watcher.pid <= 1 || watcher.pid === self || !isAlive(watcher.pid)) return undefined;
  // A marker that does not name this very dir was copied here (or left by a version that did not say).
  if (watcher.dirId === undefined || watcher.dirId !== dirIdentity(dir)) return undefined;
  if (cycleAt > now + MARKER_SKEW_MS) return undefined;
  const verified = hasProc(procRoot);
  if (verified) {
    const holder = identify(watcher.pid, procRoot);
    if (!holder || holder.start !== watcher.startTime || !isWatchCommand(holder.argv)) return undefined;
  }
  const due = cycleAt + Math.min(watcher.overdueAfterMs, MAX_OVERDUE_MS);
  return {
    watcher,
    cycleAt: new Date(cycleAt).toISOString(),
    dueBy: new Date(due).toISOString(),
    overdue: now > due,
    verified,
  };
}

/** What a poll says when a watcher lives but has not polled for longer than it promised. */
export function overdueNotice(seen: WatcherSeen, doing: string): string {
  return `agent: the watcher (pid ${seen.watcher.pid}) should have polled by ${seen.dueBy} and has not (stopped with Ctrl-Z or stuck?); ${doing}`;
}
