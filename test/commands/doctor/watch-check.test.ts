import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { watchCheck } from '../../../src/commands/doctor/local-checks.js';
import { dirIdentity, writeWatchMarker } from '../../../src/poll/watch-marker.js';

// doctor's line for a live `poll --watch`: when its next cycle comes, which is not when it would be
// overdue (that is the interval plus the longest a cycle may take, ten minutes later). A /proc of the
// test's own shows the watcher's process.

let root: string;
let dir: string;
let proc: string;
beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-watchcheck-'));
  dir = path.join(root, 'config');
  proc = path.join(root, 'proc');
  fs.mkdirSync(dir, { mode: 0o700 });
  for (const [pid, argv] of [
    ['self', ['node', 'agent', 'doctor']],
    ['4242', ['node', 'agent', 'poll', '--watch']],
  ] as const) {
    fs.mkdirSync(path.join(proc, pid), { recursive: true });
    fs.writeFileSync(path.join(proc, pid, 'stat'), `${pid} (node) S ${Array(18).fill('0').join(' ')} 777 0\n`);
    fs.writeFileSync(path.join(proc, pid, 'cmdline'), `${argv.join('\0')}\0`);
  }
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

const CYCLE_AT = Date.parse('2026-11-28T08:00:00.000Z');

describe("doctor's watcher line", () => {
  it('says when the next cycle comes (the interval after the last began), and apart from it when it is overdue', () => {
    const watcher = {
      pid: 4242,
      startedAt: '2026-11-28T07:00:00.000Z',
      overdueAfterMs: 60_000 + 600_000,
      intervalMs: 60_000,
      startTime: '777',
      dirId: dirIdentity(dir),
    };
    writeWatchMarker(dir, watcher, CYCLE_AT);
    const check = watchCheck(dir, { isAlive: (pid) => pid === 4242, self: 1, now: CYCLE_AT + 5_000, procRoot: proc });
    expect(check).toMatchObject({ status: 'ok' });
    expect(check?.detail).toBe(
      'poll --watch (pid 4242, since 2026-11-28T07:00:00.000Z) polls: its latest cycle began at 2026-11-28T08:00:00.000Z, the next about 2026-11-28T08:01:00.000Z once that one is done (overdue after 2026-11-28T08:11:00.000Z)',
    );
  });

  it('a marker without its interval (an older watcher): only when it would be overdue, said as that', () => {
    const watcher = {
      pid: 4242,
      startedAt: '2026-11-28T07:00:00.000Z',
      overdueAfterMs: 660_000,
      startTime: '777',
      dirId: dirIdentity(dir),
    };
    writeWatchMarker(dir, watcher, CYCLE_AT);
    const check = watchCheck(dir, { isAlive: (pid) => pid === 4242, self: 1, now: CYCLE_AT + 5_000, procRoot: proc });
    expect(check?.detail).toBe(
      'poll --watch (pid 4242, since 2026-11-28T07:00:00.000Z) polls: its latest cycle began at 2026-11-28T08:00:00.000Z (overdue after 2026-11-28T08:11:00.000Z)',
    );
  });
});
