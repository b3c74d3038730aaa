import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type AnalyzeOptions, runAnalyze } from '../../../src/commands/analyze/run.js';
import { offlineContext } from '../../support/context.js';
import { onlineContext, registerWith, shown } from '../../support/in-process.js';
import { sandboxPerTest } from '../../support/sandbox-per-test.js';

// `agent analyze` in-process: a thread of a loopback sandbox, and `--stdin` (the external protocol) through
// ctx.readStdin with a context that fails the test if it opens a connection. test/e2e/analyzers.test.ts
// runs it as a command analyzer of a spawned poll.

const world = sandboxPerTest('agent-analyze-');

const BULLISH = 'Spot ETF inflows hit $500M as whales withdraw 10,000 BTC from exchanges; breakout above resistance.';
const TIMESTAMP = new Date(Date.now() - 2 * 60_000).toISOString();
const PROFILE = {
  signal_method: 'onchain',
  conviction_style: 'moderate',
  directional_bias: 'neutral',
  participation: 'active',
};

async function analyzeThread(options: AnalyzeOptions = {}, { json = false } = {}) {
  const dir = path.join(world.dir, 'config');
  if (!fs.existsSync(dir)) await registerWith(world.sandbox.url, dir);
  const { ctx, run } = onlineContext(dir, undefined, { json });
  return { dir, ...(await run(() => runAnalyze(ctx, 'a', options))) };
}

function analyzeStdin(input: string, options: AnalyzeOptions = {}) {
  const { ctx, stdout, stderr } = offlineContext(path.join(world.dir, 'none'), { stdin: input });
  return shown(ctx, { stdout, stderr }, () => runAnalyze(ctx, undefined, { stdin: true, ...options }));
}

describe('agent analyze <thread>', () => {
  it('prints what was read, the trace and the decision; --json the same as data; nothing posted or kept', async () => {
    world.sandbox.addThread({ id: 'a', text: BULLISH, project_id: 'c/bitcoin', timestamp: TIMESTAMP });
    const human = await analyzeThread();
    expect(human).toMatchObject({ code: 0, stderr: '' });
    const lines = human.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(new RegExp(`^Thread a \\(c/bitcoin\\), ${TIMESTAMP}, price [\\d.]+: Spot ETF inflows`));
    expect(lines).toContain('  analyzer: builtin');
    expect(human.stdout).toMatch(/\n {2}policy: post \+\d\.\d: /);
    expect(lines.at(-1)).toMatch(/^Would post \+\d\.\d% on a \(c\/bitcoin\): Bullish on c\/bitcoin: /);

    const json = JSON.parse((await analyzeThread({}, { json: true })).stdout);
    expect(json).toEqual({
      threadId: 'a',
      action: 'post',
      conviction: expect.any(Number),
      text: expect.any(String),
      trace: expect.arrayContaining(['analyzer: builtin']),
    });
    expect(json.conviction).toBeGreaterThan(0);
    expect(world.sandbox.comments()).toEqual([]);
    const state = JSON.parse(fs.readFileSync(path.join(human.dir, 'state.json'), 'utf8'));
    expect(state.journal ?? {}).toEqual({});
    expect(fs.existsSync(path.join(human.dir, 'history.jsonl'))).toBe(false);
  });

  it('a locked thread is analyzed, with a note on stderr that a prediction would be refused', async () => {
    world.sandbox.addThread({ id: 'a', text: BULLISH, project_id: 'c/bitcoin', timestamp: TIMESTAMP, locked: true });
    const result = await analyzeThread();
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('note: thread a is locked; a prediction on it would be refused');
  });
});

describe('agent analyze --stdin', () => {
  const input = (thread: object = {}) =>
    JSON.stringify({
      version: 1,
      thread: { id: 'a', project_id: 'c/bitcoin', text: BULLISH, timestamp: TIMESTAMP, ...thread },
      profile: PROFILE,
    });

  it('answers a protocol object with one JSON line: the decision the built-in analyzer reaches on the thread', async () => {
    world.sandbox.addThread({ id: 'a', text: BULLISH, project_id: 'c/bitcoin', timestamp: TIMESTAMP });
    const { threadId, trace, ...decision } = JSON.parse((await analyzeThread({}, { json: true })).stdout);
    const fetched = world.sandbox.store.thread('a')!;
    const result = await analyzeStdin(input({ price_on_fetch: fetched.price_on_fetch }));
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout.endsWith('\n')).toBe(true);
    expect(result.stdout.trimEnd().split('\n')).toHaveLength(1);
    expect(JSON.parse(result.stdout)).toEqual(decision);
    expect(threadId).toBe('a');
    expect(trace.length).toBeGreaterThan(0);
  });

  it.each([
    ['not JSON', 'thread a', /standard input is not one JSON object \(see examples\/README.md for the protocol\)/],
    ['not a protocol object', '{"thread": {"id": 1}}', /standard input is not a protocol object \(/],
    ['a newer protocol', JSON.stringify({ version: 99 }), /protocol version 99 is newer than this agent's/],
  ])('%s: a usage error (exit 2), nothing on stdout', async (_what, text, message) => {
    const result = await analyzeStdin(text);
    expect(result).toMatchObject({ code: 2, stdout: '' });
    expect(result.stderr).toMatch(message);
  });

  it('a thread id with --stdin, or neither: a usage error (exit 2)', async () => {
    const { ctx, stdout, stderr } = offlineContext(path.join(world.dir, 'none'), { stdin: input() });
    const both = await shown(ctx, { stdout, stderr }, () => runAnalyze(ctx, 'a', { stdin: true }));
    expect(both).toMatchObject({ code: 2, stderr: 'agent: give a thread id or --stdin, not both\n' });
    const { ctx: bare, stdout: out, stderr: err } = offlineContext(path.join(world.dir, 'none'));
    const neither = await shown(bare, { stdout: out, stderr: err }, () => runAnalyze(bare, undefined, {}));
    expect(neither.code).toBe(2);
    expect(neither.stderr).toContain('missing the thread id');
  });
});
