import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  dirIdentity,
  otherWatcher,
  readWatchMarker,
  removeWatchMarker,
  touchWatchMarker,
  writeWatchMarker,
  type Watcher,
} from '../../src/poll/watch-marker.js';
import { identify } from '../../src/poll/process-identity.js';
import { MAX_OVERDUE_MS } from '../../src/poll/watch-limits.js';

let dir: string;
let proc: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-watch-'));
  proc = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-proc-'));
  lay(proc, 'self', '7', ['node', 'agent.cjs', 'poll']);
  lay(proc, 41, '123456', ['/usr/bin/node', '/opt/agent/bin/agent.cjs', 'poll', '--watch', '--interval', '60']);
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
  fs.rmSync(proc, { recursive: true, force: true });
});

/** A process as /proc shows it: its stat line (the start time is field 22) and its command line. */
function lay(root: string, pid: number | 'self', start: string, argv: string[]): void {
  fs.mkdirSync(path.join(root, String(pid)), { recursive: true });
  const stat = `${pid === 'self' ? 7 : pid} (node (x) y) S 1 ${'0 '.repeat(17)}${start} 1000 20`;
  fs.writeFileSync(path.join(root, String(pid), 'stat'), stat);
  fs.writeFileSync(path.join(root, String(pid), 'cmdline'), `${argv.join('\0')}\0`);
}

const alive = (pids: number[]) => (pid: number) => pids.includes(pid);
const at = (iso: string) => Date.parse(iso);
const base = { pid: 41, startedAt: '2026-11-25T00:00:00.000Z', overdueAfterMs: 600_000, startTime: '123456' };
const start = at(base.startedAt);
// The marker names the config dir it polls (the test's temporary one).
let watcher: Watcher;
beforeEach(() => {
  watcher = { ...base, dirId: dirIdentity(dir) };
});

describe('the watch marker', () => {
  it('names a live watcher to everyone but itself; a dead one names nobody', () => {
    writeWatchMarker(dir, watcher, start);
    expect(fs.statSync(path.join(dir, 'watch')).mode & 0o777).toBe(0o600);
    const now = start + 60_000;
    expect(otherWatcher(dir, { isAlive: alive([41]), self: 7, now, procRoot: proc })).toEqual({
      watcher,
      cycleAt: '2026-11-25T00:00:00.000Z',
      dueBy: '2026-11-25T00:10:00.000Z',
      overdue: false,
      verified: true,
    });
    expect(otherWatcher(dir, { isAlive: alive([41]), self: 41, now, procRoot: proc })).toBeUndefined();
    expect(otherWatcher(dir, { isAlive: alive([]), self: 7, now, procRoot: proc })).toBeUndefined();
  });

  it('names nobody in another config dir it was copied into, nor without the dir it names', () => {
    const other = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-watch-other-'));
    try {
      writeWatchMarker(dir, watcher, start);
      fs.copyFileSync(path.join(dir, 'watch'), path.join(other, 'watch'));
      fs.utimesSync(path.join(other, 'watch'), start / 1000, start / 1000);
      const options = { isAlive: alive([41]), self: 7, now: start + 60_000, procRoot: proc };
      expect(otherWatcher(dir, options)).toMatchObject({ overdue: false });
      expect(otherWatcher(other, options)).toBeUndefined();
      writeWatchMarker(dir, base, start);
      expect(otherWatcher(dir, options)).toBeUndefined();
    } finally {
      fs.rmSync(other, { recursive: true, force: true });
    }
  });

  it('a live watcher past the cycle it promised is overdue; each cycle it begins renews the promise', () => {
    writeWatchMarker(dir, watcher, start);
    const isAlive = alive([41]);
    const due = start + watcher.overdueAfterMs;
    expect(otherWatcher(dir, { isAlive, self: 7, now: due, procRoot: proc })?.overdue).toBe(false);
    expect(otherWatcher(dir, { isAlive, self: 7, now: due + 1, procRoot: proc })?.overdue).toBe(true);
    touchWatchMarker(dir, watcher, start + 300_000);
    expect(otherWatcher(dir, { isAlive, self: 7, now: due + 1, procRoot: proc })).toMatchObject({
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
      expect(otherWatcher(dir, { isAlive: () => true, self: 7, now: 0, procRoot: proc }), text).toBeUndefined();
    }
  });

  describe('is believed only as far as it can be checked: it silences cron', () => {
    const seen = (marker: object, options: { now?: number; procRoot?: string } = {}) => {
      writeWatchMarker(dir, { ...watcher, ...marker }, start);
      return otherWatcher(dir, {
        isAlive: () => true,
        self: 7,
        now: options.now ?? start,
        procRoot: options.procRoot ?? proc,
      });
    };

    it.each([
      ['pid 1 (init)', { pid: 1 }],
      ['pid 0', { pid: 0 }],
      ['pid -1 (kill -1 reaches every process)', { pid: -1 }],
      ["a pid now another process's: another start time (kill -9, a reboot)", { startTime: '999' }],
      ['a pid whose start time is copied, but that does not run poll --watch', { pid: 42 }],
      ['no start time (an older watcher, or a hand-written marker)', { startTime: undefined }],
      ['no such process under /proc', { pid: 43 }],
    ])('%s names nobody', (_what, marker) => {
      lay(proc, 42, '123456', ['sleep', '600']);
      expect(seen(marker)).toBeUndefined();
    });

    it('a marker dated ahead of the clock names nobody (it could keep cron away for ever)', () => {
      writeWatchMarker(dir, watcher, start + 10 * 365 * 86_400_000);
      expect(otherWatcher(dir, { isAlive: () => true, self: 7, now: start, procRoot: proc })).toBeUndefined();
    });

    it('the window a marker claims is capped at the longest interval plus a cycle', () => {
      const claimed = seen({ overdueAfterMs: 1e12 }, { now: start + MAX_OVERDUE_MS + 1 });
      expect(claimed).toMatchObject({ dueBy: new Date(start + MAX_OVERDUE_MS).toISOString(), overdue: true });
      expect(MAX_OVERDUE_MS).toBe(86_400_000 + 210_000);
    });

    it('where there is no /proc, a live pid above 1 is believed, unverified, within the capped window', () => {
      const none = path.join(proc, 'missing');
      expect(seen({ startTime: undefined }, { procRoot: none })).toMatchObject({ verified: false, overdue: false });
      expect(seen({ pid: 1 }, { procRoot: none })).toBeUndefined();
    });

    it('identify reads the start and command line of a real process (this one)', () => {
      const me = identify(process.pid);
      expect(me?.start).toMatch(/^\d+$/);
      expect(me?.argv.length).toBeGreaterThan(0);
      expect(identify('self')?.start).toBe(me?.start);
    });
  });
});
