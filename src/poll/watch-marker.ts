import fs from 'node:fs';
import path from 'node:path';

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
}

/** Another watcher as a poll or a second watcher finds it: its marker, and when its next cycle was due. */
export interface WatcherSeen {
  watcher: Watcher;
  dueBy: string;
  overdue: boolean;
}

export function writeWatchMarker(dir: string, watcher: Watcher, now: number): void {
  const file = path.join(dir, MARKER);
  fs.writeFileSync(file, JSON.stringify(watcher), { mode: 0o600 });
  fs.utimesSync(file, now / 1000, now / 1000);
}

/** At each cycle's start. Written anew if it is gone (a watcher that took over from this one removed it). */
export function touchWatchMarker(dir: string, watcher: Watcher, now: number): void {
  try {
    fs.utimesSync(path.join(dir, MARKER), now / 1000, now / 1000);
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
    const file = path.join(dir, MARKER);
    const cycleAt = fs.statSync(file).mtimeMs;
    const value: unknown = JSON.parse(fs.readFileSync(file, 'utf8'));
    if (typeof value !== 'object' || value === null) return undefined;
    const { pid, startedAt, overdueAfterMs } = value as Record<string, unknown>;
    return typeof pid === 'number' &&
      Number.isInteger(pid) &&
      typeof startedAt === 'string' &&
      typeof overdueAfterMs === 'number' &&
      overdueAfterMs > 0
      ? { watcher: { pid, startedAt, overdueAfterMs }, cycleAt }
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Another watcher whose process still runs, and whether it is overdue. A marker left by one that was killed
 * (kill -9, a reboot) names nobody.
 */
export function otherWatcher(
  dir: string,
  { isAlive, self, now }: { isAlive: (pid: number) => boolean; self: number; now: number },
): WatcherSeen | undefined {
  const found = readWatchMarker(dir);
  if (!found || found.watcher.pid === self || !isAlive(found.watcher.pid)) return undefined;
  const due = found.cycleAt + found.watcher.overdueAfterMs;
  return { watcher: found.watcher, dueBy: new Date(due).toISOString(), overdue: now > due };
}

/** What a poll says when a watcher lives but has not polled for longer than it promised. */
export function overdueNotice(seen: WatcherSeen, doing: string): string {
  return `agent: the watcher (pid ${seen.watcher.pid}) should have polled by ${seen.dueBy} and has not (stopped with Ctrl-Z or stuck?); ${doing}`;
}
