import fs from 'node:fs';
import path from 'node:path';

/** While a watcher lives it names itself here, so that a cron poll on the same config dir leaves it the work. */
const MARKER = 'watch';

export interface Watcher {
  pid: number;
  startedAt: string;
}

export function writeWatchMarker(dir: string, watcher: Watcher): void {
  fs.writeFileSync(path.join(dir, MARKER), JSON.stringify(watcher), { mode: 0o600 });
}

export function removeWatchMarker(dir: string, pid: number): void {
  // Only its own: a second watcher started later may have written its pid over it.
  if (readWatchMarker(dir)?.pid === pid) fs.rmSync(path.join(dir, MARKER), { force: true });
}

/** The watcher that wrote the marker, if the marker is there and well-formed. */
export function readWatchMarker(dir: string): Watcher | undefined {
  try {
    const value: unknown = JSON.parse(fs.readFileSync(path.join(dir, MARKER), 'utf8'));
    if (typeof value !== 'object' || value === null) return undefined;
    const { pid, startedAt } = value as Record<string, unknown>;
    return typeof pid === 'number' && Number.isInteger(pid) && typeof startedAt === 'string'
      ? { pid, startedAt }
      : undefined;
  } catch {
    return undefined;
  }
}

/** A watcher that is still running: a marker left by one that was killed (kill -9, a reboot) is not. */
export function liveWatcher(dir: string, isAlive: (pid: number) => boolean, self: number): Watcher | undefined {
  const watcher = readWatchMarker(dir);
  return watcher && watcher.pid !== self && isAlive(watcher.pid) ? watcher : undefined;
}
