import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { liveWatcher, readWatchMarker, removeWatchMarker, writeWatchMarker } from '../../src/poll/watch-marker.js';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-watch-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const alive = (pids: number[]) => (pid: number) => pids.includes(pid);

describe('the watch marker', () => {
  it('names a live watcher to everyone but itself; a dead one names nobody', () => {
    writeWatchMarker(dir, { pid: 41, startedAt: '2026-11-25T00:00:00.000Z' });
    expect(fs.statSync(path.join(dir, 'watch')).mode & 0o777).toBe(0o600);
    expect(liveWatcher(dir, alive([41]), 7)).toEqual({ pid: 41, startedAt: '2026-11-25T00:00:00.000Z' });
    expect(liveWatcher(dir, alive([41]), 41)).toBeUndefined();
    expect(liveWatcher(dir, alive([]), 7)).toBeUndefined();
  });

  it('is removed only by the watcher that wrote it', () => {
    writeWatchMarker(dir, { pid: 41, startedAt: 'x' });
    removeWatchMarker(dir, 42);
    expect(readWatchMarker(dir)?.pid).toBe(41);
    removeWatchMarker(dir, 41);
    expect(readWatchMarker(dir)).toBeUndefined();
  });

  it('a marker that is not one names nobody', () => {
    for (const text of ['', 'garbage', '{"pid": "41", "startedAt": "x"}', '{"pid": 4.5, "startedAt": "x"}', 'null']) {
      fs.writeFileSync(path.join(dir, 'watch'), text);
      expect(
        liveWatcher(dir, () => true, 7),
        text,
      ).toBeUndefined();
    }
  });
});
