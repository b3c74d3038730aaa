import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BULLISH, minutesAgo, registeredWorlds, type World } from './harness.js';
import { startAgent, until } from './live-process.js';

// Something other than a regular file where the run lock or the watch marker belongs (a FIFO, a
// directory, a dangling symbolic link): no run hangs on it, and none fails as "a bug" or gives up
// quietly (exit 0) on every cron run; the error names the file and what to do.

const registered = registeredWorlds();

const odd: Array<[string, (file: string, w: World) => void]> = [
  ['a FIFO', (file) => execFileSync('mkfifo', ['-m', '600', file])],
  ['a directory', (file) => fs.mkdirSync(file, { mode: 0o700 })],
  ['a dangling symbolic link', (file, w) => fs.symlinkSync(path.join(w.home, 'nowhere'), file)],
];

// Ended by the harness (code null) if it hangs; well before the test's own timeout.
const BOUND = { timeoutMs: 10_000 };

describe.each(odd)('%s in place of', (_what, make) => {
  it('the lock: poll and predict end with an error that names the file and its fix; doctor does not hang', async () => {
    const w = await registered();
    const lock = path.join(w.configDir, 'lock');
    make(lock, w);
    for (const args of [['poll'], ['predict', 'x', '--conviction', '1', '--text', 'a prediction text long enough']]) {
      const run = await w.agent(args, BOUND);
      expect(run.code, `${args[0]}: ${run.stderr}`).not.toBe(null);
      expect(run.code).not.toBe(0);
      expect(run.stderr).toContain(lock);
      expect(run.stderr).toMatch(/not a regular file/);
      expect(run.stderr).toMatch(/rm /);
      expect(run.stderr).not.toMatch(/bug|keeps taking it/);
    }
    const doctor = await w.agent(['doctor'], BOUND);
    expect(doctor.code).not.toBe(null);
    expect(doctor.stdout + doctor.stderr).toContain(lock);
  });

  it('the watch marker: a cron poll does its work, doctor ends, and poll --watch says what is wrong', async () => {
    const w = await registered();
    const marker = path.join(w.configDir, 'watch');
    make(marker, w);
    w.sandbox.addThread({ id: 'due', text: BULLISH, project_id: 'c/bitcoin', timestamp: minutesAgo(1) });
    const cron = await w.agent(['poll'], BOUND);
    expect(cron.code, cron.stderr).toBe(0);
    expect(w.sandbox.comments().map((c) => c.thread_id)).toEqual(['due']);
    expect((await w.agent(['doctor'], BOUND)).code).not.toBe(null);
    if (_what === 'a directory') {
      const watcher = await w.agent(['poll', '--watch', '--interval', '300'], BOUND);
      expect(watcher.code, watcher.stderr).not.toBe(null);
      expect(watcher.code).not.toBe(0);
      expect(watcher.stderr).toContain(marker);
      expect(watcher.stderr).toMatch(/rm -r/);
      expect(watcher.stderr).not.toMatch(/bug/);
    } else {
      // Replaced by the watcher's own marker (written beside it and renamed over it), never written through.
      const watcher = startAgent(w, ['poll', '--watch', '--interval', '300']);
      await until('its marker', () => fs.lstatSync(marker).isFile());
      process.kill(watcher.pid(), 'SIGTERM');
      expect(await watcher.ended, watcher.output()).toEqual({ code: 0, signal: null });
      expect(fs.existsSync(path.join(w.home, 'nowhere'))).toBe(false);
    }
  });
});
