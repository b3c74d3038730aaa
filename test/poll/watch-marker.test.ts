import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  otherWatcher,
  readWatchMarker,
  removeWatchMarker,
  touchWatchMarker,
  writeWatchMarker,
} from '../../src/poll/watch-marker.js';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-watch-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const alive = (pids: number[]) => (pid: number) => pids.includes(pid);
const at = (iso: string) => Date.parse(iso);
const watcher = { pid: 41, startedAt: '2026-11-25T00:00:00.000Z', overdueAfterMs: 600_000 };
const start = at(watcher.startedAt);

describe('the watch marker', () => {
  it('names a live watcher to everyone but itself; a dead one names nobody', () => {
    writeWatchMarker(dir, watcher, start);
    expect(fs.statSync(path.join(dir, 'watch')).mode & 0o777).toBe(0o600);
    const now = start + 60_000;
    expect(otherWatcher(dir, { isAlive: alive([41]), self: 7, now })).toEqual({
      watcher,
      dueBy: '2026-11-25T00:10:00.000Z',
      overdue: false,
    });
    expect(otherWatcher(dir, { isAlive: alive([41]), self: 41, now })).toBeUndefined();
    expect(otherWatcher(dir, { isAlive: alive([]), self: 7, now })).toBeUndefined();
  });

  it('a live watcher past the cycle it promised is overdue; each cycle it begins renews the promise', () => {
    writeWatchMarker(dir, watcher, start);
    const isAlive = alive([41]);
    const due = start + watcher.overdueAfterMs;
    expect(otherWatcher(dir, { isAlive, self: 7, now: due })?.overdue).toBe(false);
    expect(otherWatcher(dir, { isAlive, self: 7, now: due + 1 })?.overdue).toBe(true);
    touchWatchMarker(dir, watcher, start + 300_000);
    expect(otherWatcher(dir, { isAlive, self: 7, now: due + 1 })).toMatchObject({
      dueBy: '2026-11-25T00:15:00.000Z',
      overdue: false,
    });
  });

  it('is written anew by a cycle that finds it gone', () => {
    touchWatchMarker(dir, watcher, start);
    expect(readWatchMarker(dir)).toEqual({ watcher, cycleAt: start });
  });

  it('is removed only by the watcher that wrote it', () => {
    writeWatchMarker(dir, watcher, start);
    removeWatchMarker(dir, 42);
    expect(readWatchMarker(dir)?.watcher.pid).toBe(41);
    removeWatchMarker(dir, 41);
    expect(readWatchMarker(dir)).toBeUndefined();
  });

  it('a marker that is not one names nobody', () => {
    for (const text of [
      '',
      'garbage',
      'null',
      '{"pid": "41", "startedAt": "x", "overdueAfterMs": 1000}',
      '{"pid": 4.5, "startedAt": "x", "overdueAfterMs": 1000}',
      // a watcher of the version before, which promised nothing: cron polls beside it under the run lock
      '{"pid": 41, "startedAt": "x"}',
      '{"pid": 41, "startedAt": "x", "overdueAfterMs": "soon"}',
      '{"pid": 41, "startedAt": "x", "overdueAfterMs": -1}',
    ]) {
      fs.writeFileSync(path.join(dir, 'watch'), text);
      expect(otherWatcher(dir, { isAlive: () => true, self: 7, now: 0 }), text).toBeUndefined();
    }
  });
});
