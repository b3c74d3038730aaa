import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BULLISH, minutesAgo, registeredWorlds, type World } from './harness.js';

// What stands in place of history.jsonl is not always a file the history wrote: a huge file, a directory,
// a symlink to some other file, a FIFO. history and stats read it in bounded pieces, newest first, and say
// which file is wrong; a run never appends through a link or into anything but a regular file.

const registered = registeredWorlds();
const historyFile = (w: World) => path.join(w.configDir, 'history.jsonl');

const skip = (threadId: string, minutes: number) =>
  JSON.stringify({ ts: minutesAgo(minutes), kind: 'skip', threadId, cell: 'bitcoin', reason: 'quiet' });
const run = (minutes: number) =>
  JSON.stringify({
    ts: minutesAgo(minutes),
    kind: 'run',
    summary: { command: 'poll', posted: 0, skipped: 1, failed: 0, exitCode: 0, elapsedMs: 5 },
  });

describe('history files that are not what the history wrote', () => {
  it('a 600 MB history.jsonl: history and stats show its newest entries and say the file is too large', async () => {
    const w = await registered();
    // Sparse: 600 MB of nothing on disk, then the newest lines.
    const size = 600 * 1024 * 1024;
    const fd = fs.openSync(historyFile(w), 'w', 0o600);
    fs.ftruncateSync(fd, size);
    fs.writeSync(fd, `\n${skip('newest', 2)}\n${run(2)}\n`, size);
    fs.closeSync(fd);
    const history = await w.agent(['history', '--json', '--limit', '2']);
    expect(history.code, history.stderr).toBe(0);
    expect(JSON.parse(history.stdout).entries.map((e: { kind: string }) => e.kind)).toEqual(['run', 'skip']);
    expect(history.stderr).toMatch(/history\.jsonl is \d+ MiB.*only its newest/);
    const stats = await w.agent(['stats', '--json']);
    expect(stats.code, stats.stderr).toBe(0);
    expect(JSON.parse(stats.stdout).runs.poll).toBe(1);
  });

  it.each([
    ['history', ['history']],
    ['stats', ['stats']],
  ])('a directory in place of history.jsonl: %s names the file, and it is not "a bug"', async (_what, args) => {
    const w = await registered();
    fs.mkdirSync(historyFile(w));
    const result = await w.agent(args);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`${historyFile(w)} is not a regular file`);
    expect(result.stderr).not.toMatch(/bug|unexpected/);
  });

  it('doctor says which file it cannot read', async () => {
    const w = await registered();
    fs.mkdirSync(historyFile(w));
    const result = await w.agent(['doctor', '--json']);
    const checks = JSON.parse(result.stdout).checks as Array<{ name: string; status: string; detail: string }>;
    expect(checks.find((c) => c.name === 'last poll')).toMatchObject({
      status: 'warn',
      detail: expect.stringContaining(`${historyFile(w)} is not a regular file`),
    });
  });

  it('a symlink in place of history.jsonl: a poll appends nothing through it, and history refuses it', async () => {
    const w = await registered();
    const elsewhere = path.join(w.home, 'elsewhere.txt');
    fs.writeFileSync(elsewhere, 'not yours to append to\n');
    fs.symlinkSync(elsewhere, historyFile(w));
    w.sandbox.addThread({ id: 'up', text: BULLISH, project_id: 'c/bitcoin', timestamp: minutesAgo(3) });
    const poll = await w.agent(['poll']);
    expect(poll.code).toBe(0);
    expect(w.sandbox.comments()).toHaveLength(1);
    expect(poll.stderr).toMatch(/could not add to the history in .*history\.jsonl \(not a regular file\)/);
    expect(fs.readFileSync(elsewhere, 'utf8')).toBe('not yours to append to\n');
    const history = await w.agent(['history']);
    expect(history.code).toBe(1);
    expect(history.stderr).toContain(`${historyFile(w)} is not a regular file`);
  });

  it('a FIFO in place of history.jsonl: neither a poll nor history waits on it', async () => {
    const w = await registered();
    execFileSync('mkfifo', ['-m', '600', historyFile(w)]);
    w.sandbox.addThread({ id: 'up', text: BULLISH, project_id: 'c/bitcoin', timestamp: minutesAgo(3) });
    const poll = await w.agent(['poll'], { timeoutMs: 10_000 });
    expect(poll.code).toBe(0);
    expect(poll.stderr).toMatch(/could not add to the history .*\(not a regular file\)/);
    const history = await w.agent(['history'], { timeoutMs: 10_000 });
    expect(history.code).toBe(1);
    expect(history.stderr).toContain('is not a regular file');
  });
});
