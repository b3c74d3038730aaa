import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { builtinAnalyzer } from '../../../src/analysis/index.js';
import { replayFile } from '../../../src/commands/backtest/measure.js';
import { runSandbox, type SandboxOptions } from '../../../src/commands/sandbox/run.js';
import type { Context } from '../../../src/context.js';
import { UsageError } from '../../../src/errors.js';
import { createFakeClock, HOUR_MS } from '../../../src/sandbox/clock.js';
import { sandboxWithHistory } from '../../../src/sandbox/export.js';
import { createSandbox } from '../../../src/sandbox/server.js';
import { settleThread } from '../../../src/sandbox/settle.js';
import { failure } from '../../support/failure.js';
import { makeOutput } from '../../support/streams.js';

// `agent sandbox --export <file>`: the resolved threads of a sandbox built as the flags say, written for
// `agent backtest`, and no server started.

const NOW = Date.UTC(2026, 2, 6, 12);
let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-sandbox-export-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

function context(json = false) {
  const { output, stdout, stderr } = makeOutput({ json });
  const ctx: Context = {
    output,
    env: {},
    configDir: path.join(dir, 'config'),
    baseUrl: undefined,
    timing: { now: () => NOW, sleep: async () => {}, random: () => 0.5 },
    pid: process.pid,
    transport: () => {
      throw new Error('an export sends nothing');
    },
    untilSignal: () => {
      throw new Error('an export must not wait to be stopped: it does not serve');
    },
  };
  return { ctx, stdout, stderr };
}

async function exportTo(flags: SandboxOptions, json = false) {
  const { ctx, stdout, stderr } = context(json);
  await runSandbox(ctx, flags);
  return { stdout: stdout.text, stderr: stderr.text, doc: JSON.parse(fs.readFileSync(flags.export!, 'utf8')) };
}

describe('what is written', () => {
  it('a fresh seeded sandbox: its backlog threads already locked, as {"threads": [...]}, and a hint for more', async () => {
    const file = path.join(dir, 'out.json');
    const { stdout, stderr, doc } = await exportTo({ export: file, seed: '3' });
    // The backlog is 12 threads spread over the past 4 hours: the 4 older than 3 hours are locked.
    expect(doc.threads).toHaveLength(4);
    for (const thread of doc.threads) {
      expect(thread).toMatchObject({
        locked: true,
        price_on_fetch: expect.any(Number),
        price_on_eval: expect.any(Number),
      });
      expect(Date.parse(thread.timestamp)).toBeLessThanOrEqual(NOW - 3 * HOUR_MS);
    }
    expect(stdout).toBe(
      `Wrote 4 resolved threads to ${file} (a fresh sandbox has only its 12-thread backlog; --history 24 runs the feed for 24 hours first).\n`,
    );
    expect(stderr).toBe('');
    expect(fs.readdirSync(dir)).toEqual(['out.json']);
  });

  it('--history runs the feed first: every thread locked by now, oldest first; --json says where and how many', async () => {
    const file = path.join(dir, 'day.json');
    const { stdout, doc } = await exportTo({ export: file, seed: '3', history: '24', rate: '0.5' }, true);
    // 12 backlog threads, then one every 2 minutes for 24 hours; those of the last 3 hours are still open.
    expect(doc.threads.length).toBeGreaterThanOrEqual(12 + 21 * 30 - 1);
    expect(doc.threads.length).toBeLessThanOrEqual(12 + 21 * 30 + 1);
    expect(JSON.parse(stdout)).toEqual({ file, threads: doc.threads.length });
    const times = doc.threads.map((t: { timestamp: string }) => Date.parse(t.timestamp));
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(Math.max(...times)).toBeLessThanOrEqual(NOW - 3 * HOUR_MS);
    expect(Math.min(...times)).toBeLessThan(NOW - 24 * HOUR_MS);
  });

  it('is reproducible: the same seed and time give the same file, another seed another', async () => {
    const [a, b, c] = ['a.json', 'b.json', 'c.json'].map((name) => path.join(dir, name));
    await exportTo({ export: a!, seed: '9', history: '6' });
    await exportTo({ export: b!, seed: '9', history: '6' });
    await exportTo({ export: c!, seed: '10', history: '6' });
    expect(fs.readFileSync(a!, 'utf8')).toBe(fs.readFileSync(b!, 'utf8'));
    expect(fs.readFileSync(a!, 'utf8')).not.toBe(fs.readFileSync(c!, 'utf8'));
  });

  it('replaces an existing file whole', async () => {
    const file = path.join(dir, 'out.json');
    fs.writeFileSync(file, 'old content that is longer than nothing');
    const { doc } = await exportTo({ export: file, seed: '3' });
    expect(doc.threads).toHaveLength(4);
    expect(fs.readdirSync(dir)).toEqual(['out.json']);
  });
});

describe('--state', () => {
  it('exports a stored sandbox without writing its file; a state run fast ahead of real time is read to its end', async () => {
    const statePath = path.join(dir, 'state.json');
    // As if `agent sandbox --speed 240 --state …` had run: its clock is 30 sandbox hours ahead of NOW.
    const clock = createFakeClock(NOW + 30 * HOUR_MS);
    const running = createSandbox({ statePath, clock, seed: 4, ratePerMinute: 0.2, backlog: 12 });
    clock.advance(6 * HOUR_MS);
    running.tick();
    const before = fs.readFileSync(statePath, 'utf8');
    const mtime = fs.statSync(statePath).mtimeMs;
    const newest = Math.max(...running.store.threads().map((t) => t.timestampMs));
    const expected = running.store
      .threads()
      .filter((t) => t.timestampMs + 3 * HOUR_MS <= newest)
      .map((t) => t.id);

    const file = path.join(dir, 'out.json');
    const { doc } = await exportTo({ export: file, state: statePath, seed: '4', rate: '0.2' });
    expect(doc.threads.map((t: { id: string }) => t.id)).toEqual(expected);
    expect(expected.length).toBe(12 + 36); // the backlog, and 6 of the 9 hours of feed at 12 an hour
    expect(fs.readFileSync(statePath, 'utf8')).toBe(before);
    expect(fs.statSync(statePath).mtimeMs).toBe(mtime);
  });

  it('does not create a state file that does not exist', async () => {
    const statePath = path.join(dir, 'none.json');
    await exportTo({ export: path.join(dir, 'out.json'), state: statePath });
    expect(fs.existsSync(statePath)).toBe(false);
  });
});

describe('usage errors (exit 2), nothing written', () => {
  it.each([
    ['--history without --export', { history: '5' }, /--history only applies with --export/],
    [
      'a --history that is not a number',
      { export: 'x.json', history: 'long' },
      /--history must be a number from 0 to 720/,
    ],
    [
      'more history than a backtest wants',
      { export: 'x.json', history: '400', rate: '1' },
      /would create 24000 threads; at most 20000/,
    ],
  ])('%s', async (_what, flags, message) => {
    const { ctx } = context();
    const error = await failure(runSandbox(ctx, flags));
    expect(error).toBeInstanceOf(UsageError);
    expect(error.message).toMatch(message);
  });

  it('a file in a directory that does not exist, named in the message', async () => {
    const { ctx } = context();
    const file = path.join(dir, 'missing', 'out.json');
    const error = await failure(runSandbox(ctx, { export: file }));
    expect(error).toBeInstanceOf(UsageError);
    expect(error.message).toBe(`cannot write ${JSON.stringify(file)}: ENOENT`);
  });
});

it('round trip: an export backtested with the built-in analyzer agrees with the sandbox scoring the same predictions', async () => {
  const file = path.join(dir, 'export.json');
  const flags = { export: file, seed: '5', history: '12' };
  await exportTo(flags);
  const { ctx, stdout } = context(true);
  await replayFile(file, {}, ctx, builtinAnalyzer);
  const report = JSON.parse(stdout.text);
  const exported = JSON.parse(fs.readFileSync(file, 'utf8')).threads;
  expect(report.overall.threads).toBe(exported.length);
  expect(report.invalid).toEqual([]);
  expect(report.overall.posted).toBeGreaterThan(0);

  // The same sandbox again; each post the backtest made is stored as a prediction made the moment its
  // thread appeared, and the sandbox scores it with its own rule as it does when a thread locks.
  const sandbox = sandboxWithHistory({ seed: 5, ratePerMinute: 1, backlog: 12, historyHours: 12, now: NOW });
  let compared = 0;
  for (const [i, result] of (
    report.threads as Array<{
      threadId: string;
      action: string;
      conviction: number;
      actualMovePct: number;
      right: boolean;
      honey: number;
      wax: number;
    }>
  ).entries()) {
    const thread = sandbox.store.thread(result.threadId)!;
    expect(result.actualMovePct).toBe(thread.outcome.movePct);
    if (result.action !== 'post') continue;
    expect(result.right).toBe(result.conviction * thread.outcome.movePct > 0);
    sandbox.store.addComment({
      id: `c${i}`,
      thread_id: thread.id,
      agent_id: 'backtest',
      text: 'x',
      conviction: result.conviction,
      created_at: thread.timestamp,
      createdMs: thread.timestampMs,
    });
    thread.scored = false;
    settleThread(sandbox.store, thread);
    const [scored] = sandbox.store.commentsOn(thread.id);
    expect({ threadId: result.threadId, honey: result.honey, wax: result.wax }).toEqual({
      threadId: thread.id,
      honey: scored!.honey,
      wax: scored!.wax,
    });
    compared += 1;
  }
  expect(compared).toBe(report.overall.posted);
});
