import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { builtinAnalyzer } from '../../../src/analysis/index.js';
import type { Analyzer } from '../../../src/analysis/types.js';
import { replayFile, type ReplayOptions } from '../../../src/commands/backtest/measure.js';
import type { Context } from '../../../src/context.js';
import { AnalyzerError, UsageError } from '../../../src/errors.js';
import { failure } from '../../support/failure.js';
import { makeOutput } from '../../support/streams.js';

// The example file through the built-in analyzer with the default profile must print exactly the golden
// files. When a change to the analyzer, the policy or the example is meant to change the numbers, look at
// the difference, then regenerate them deliberately and commit them with the change:
//
//   UPDATE_GOLDEN=1 npx vitest run test/backtest/backtest-command.test.ts
const SAMPLE = 'examples/backtest-sample.json'; // relative, as a user types it: tests run from the repository root
const GOLDEN_JSON = 'test/fixtures/backtest-sample.golden.json';
const GOLDEN_TEXT = 'test/fixtures/backtest-sample.golden.txt';
const UPDATE = process.env.UPDATE_GOLDEN === '1';

function context(mode: { json?: boolean; quiet?: boolean; stderrTTY?: boolean } = {}) {
  const { output, stdout, stderr } = makeOutput(mode);
  const ctx: Context = {
    output,
    env: {},
    configDir: '/nonexistent/config',
    baseUrl: undefined,
    timing: { now: () => Date.UTC(2026, 2, 6), sleep: async () => {}, random: () => 0.5 },
    pid: process.pid,
    transport: () => {
      throw new Error('a backtest sends nothing');
    },
  };
  return { ctx, stdout, stderr };
}

async function backtest(
  file: string,
  options: ReplayOptions = {},
  mode: Parameters<typeof context>[0] = {},
  analyzer: Analyzer = builtinAnalyzer,
) {
  const { ctx, stdout, stderr } = context(mode);
  await replayFile(file, options, ctx, analyzer);
  return { stdout: stdout.text, stderr: stderr.text };
}

describe('golden: the example file, built-in analyzer, default profile', () => {
  it.each([
    ['--json', true, GOLDEN_JSON],
    ['the table', false, GOLDEN_TEXT],
  ])('%s is exactly the stored output', async (_what, json, golden) => {
    expect(fs.existsSync(SAMPLE)).toBe(true);
    const { stdout, stderr } = await backtest(SAMPLE, {}, { json });
    if (UPDATE) fs.writeFileSync(golden, stdout);
    expect(stdout).toBe(fs.readFileSync(golden, 'utf8'));
    expect(stderr).toBe('');
  });

  it('the JSON document has the promised shape and agrees with itself', async () => {
    const doc = JSON.parse((await backtest(SAMPLE, {}, { json: true })).stdout);
    expect(Object.keys(doc)).toEqual(['analyzer', 'profile', 'file', 'overall', 'cells', 'threads', 'invalid']);
    expect(doc).toMatchObject({ analyzer: 'builtin', file: SAMPLE, invalid: [] });
    expect(doc.profile).toEqual({
      signal_method: 'sentiment',
      conviction_style: 'moderate',
      directional_bias: 'neutral',
      participation: 'moderate',
    });
    expect(Object.keys(doc.cells)).toEqual(['arbitrum', 'bitcoin', 'ethereum', 'general', 'hyperliquid', 'solana']);
    const sum = (key: string) =>
      Object.values(doc.cells as Record<string, Record<string, number>>).reduce((total, cell) => total + cell[key]!, 0);
    for (const key of ['threads', 'posted', 'skipped', 'failed', 'right', 'honey', 'wax'])
      expect(sum(key)).toBe(doc.overall[key]);
    expect(doc.threads).toHaveLength(doc.overall.threads);
    expect(doc.overall.posted).toBeGreaterThan(0);
    expect(doc.overall.skipped).toBeGreaterThan(0);
  });
});

describe('the profile', () => {
  it('takes the flags it is given and states which are defaults', async () => {
    const given = { participation: 'selective', conviction_style: 'bold' };
    const { stdout } = await backtest(SAMPLE, given);
    expect(stdout.split('\n')[0]).toBe(
      `Backtest of ${SAMPLE}: analyzer builtin, profile --signal-method sentiment --conviction-style bold --directional-bias neutral --participation selective (--conviction-style, --participation given, the rest defaults); 0 invalid threads left out.`,
    );
    const doc = JSON.parse((await backtest(SAMPLE, given, { json: true })).stdout);
    expect(doc.profile).toEqual({
      signal_method: 'sentiment',
      conviction_style: 'bold',
      directional_bias: 'neutral',
      participation: 'selective',
    });
    // Each flag shows in the numbers: selective posts on fewer threads; bold, alone, sizes the same posts larger.
    const defaults = JSON.parse((await backtest(SAMPLE, {}, { json: true })).stdout);
    expect(doc.overall.posted).toBeLessThan(defaults.overall.posted);
    const boldOnly = JSON.parse((await backtest(SAMPLE, { conviction_style: 'bold' }, { json: true })).stdout);
    const sizes = (d: { threads: { conviction?: number }[] }) => d.threads.map((t) => Math.abs(t.conviction ?? 0));
    const [bold, moderate] = [sizes(boldOnly), sizes(defaults)];
    expect(bold.map((size) => size > 0)).toEqual(moderate.map((size) => size > 0));
    for (const [i, size] of bold.entries()) expect(size).toBeGreaterThanOrEqual(moderate[i] ?? 0);
    expect(bold.reduce((a, b) => a + b)).toBeGreaterThan(moderate.reduce((a, b) => a + b));
  });

  it("refuses a value not in the interface's lists, before reading the file (exit 2)", async () => {
    const { ctx } = context();
    const error = await failure(
      replayFile('/nonexistent/file.json', { conviction_style: 'yolo' }, ctx, builtinAnalyzer),
    );
    expect(error).toBeInstanceOf(UsageError);
    expect(error.message).toContain('--conviction-style must be one of conservative, moderate, bold, degen');
  });
});

describe('files with problems', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-backtest-cmd-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  const good = (id: string) => ({
    id,
    project_id: 'c/bitcoin',
    text: 'Bitcoin breaks above the $98,000 resistance.',
    timestamp: '2026-03-02T08:00:00Z',
    price_on_fetch: 100,
    price_on_eval: 101,
  });
  const write = (value: unknown) => {
    const p = path.join(dir, 'threads.json');
    fs.writeFileSync(p, typeof value === 'string' ? value : JSON.stringify(value));
    return p;
  };

  it('leaves invalid threads out: the first few on stderr, all of them in --json, the count in the heading', async () => {
    const bad = Array.from({ length: 8 }, (_, i) => ({ ...good(`bad${i}`), price_on_eval: 0 }));
    const p = write({ threads: [good('a'), ...bad, good('a')] });
    const human = await backtest(p);
    expect(human.stdout.split('\n')[0]).toMatch(/; 9 invalid threads left out\.$/);
    expect(human.stderr.split('\n').filter(Boolean)).toEqual([
      'backtest: left out the thread at index 1 (id bad0): price_on_eval: must be a number greater than 0',
      'backtest: left out the thread at index 2 (id bad1): price_on_eval: must be a number greater than 0',
      'backtest: left out the thread at index 3 (id bad2): price_on_eval: must be a number greater than 0',
      'backtest: left out the thread at index 4 (id bad3): price_on_eval: must be a number greater than 0',
      'backtest: left out the thread at index 5 (id bad4): price_on_eval: must be a number greater than 0',
      'backtest: … and 4 more left out (--json lists them all)',
    ]);
    const json = await backtest(p, {}, { json: true });
    expect(json.stderr).toBe('');
    const doc = JSON.parse(json.stdout);
    expect(doc.invalid).toHaveLength(9);
    expect(doc.invalid[8]).toEqual({
      index: 9,
      id: 'a',
      reason: 'duplicate id: the thread at index 0 has it and is kept',
    });
    expect(doc.overall.threads).toBe(1);
  });

  it.each([
    ['not JSON', 'threads: a, b'],
    ['of the wrong shape', { data: [] }],
    ['without a valid thread', [{ id: 'x' }]],
  ])('refuses a file %s with a usage error naming it, printing nothing', async (_what, content) => {
    const p = write(content);
    const { ctx, stdout } = context({ json: true });
    const error = await failure(replayFile(p, {}, ctx, builtinAnalyzer));
    expect(error.exitCode).toBe(2);
    expect(error.message).toContain(p);
    expect(stdout.text).toBe('');
  });

  it('never hands the outcome to the analyzer, whatever the file carries', async () => {
    const seen: string[] = [];
    const recording: Analyzer = {
      name: 'recording',
      analyze: async (thread) => {
        seen.push(JSON.stringify(thread));
        return { kind: 'decision', action: 'skip', reason: 'recorded' };
      },
    };
    const p = write([{ ...good('a'), price_on_eval: 131.0731, outcome: { move: 31.07 } }]);
    const doc = JSON.parse((await backtest(p, {}, { json: true }, recording)).stdout);
    expect(doc.threads[0]).toMatchObject({ action: 'skip', actualMovePct: 31.073 });
    expect(seen).toHaveLength(1);
    for (const leak of ['131.0731', 'price_on_eval', 'outcome', '31.07']) expect(seen[0]).not.toContain(leak);
  });
});

describe('the progress bar', () => {
  it("is redrawn in place on a terminal's stderr for a long file, then erased; stdout is unchanged", async () => {
    const plain = await backtest(SAMPLE);
    const { stdout, stderr } = await backtest(SAMPLE, {}, { stderrTTY: true });
    expect(stdout).toBe(plain.stdout);
    expect(stderr).not.toContain('\n');
    expect(stderr.startsWith('\rbacktest [')).toBe(true);
    expect(stderr).toContain(' 0% (0/40 threads)');
    expect(stderr).toContain(`[${'#'.repeat(30)}] 100% (40/40 threads)`);
    expect(stderr.endsWith('\r\u001b[K')).toBe(true);
  });

  it('is drawn with --json too (it never touches stdout), and the document still parses', async () => {
    const { stdout, stderr } = await backtest(SAMPLE, {}, { json: true, stderrTTY: true });
    expect(JSON.parse(stdout).overall.threads).toBe(40);
    expect(stderr).toContain('100% (40/40 threads)');
  });

  it.each([
    ['without a terminal', {}],
    ['with --quiet', { quiet: true, stderrTTY: true }],
  ])('prints nothing on stderr %s', async (_what, mode) => {
    expect((await backtest(SAMPLE, {}, mode)).stderr).toBe('');
  });

  it('is not drawn for a short file', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-backtest-short-'));
    try {
      const threads = JSON.parse(fs.readFileSync(SAMPLE, 'utf8')).threads.slice(0, 20);
      const p = path.join(dir, 'short.json');
      fs.writeFileSync(p, JSON.stringify(threads));
      expect((await backtest(p, {}, { stderrTTY: true })).stderr).toBe('');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('an analyzer that fails', () => {
  const failing = (every: boolean): Analyzer => {
    let calls = 0;
    return {
      name: 'command',
      analyze: async (thread, profile, trace) => {
        calls += 1;
        if (every || calls % 2 === 0) throw new AnalyzerError('the analyzer command exited with code 3');
        return builtinAnalyzer.analyze(thread, profile, trace);
      },
    };
  };

  it('on some threads: the numbers, and one line on stderr saying how many and why', async () => {
    const { stdout, stderr } = await backtest(SAMPLE, {}, { json: true }, failing(false));
    expect(JSON.parse(stdout).overall.failed).toBe(20);
    expect(stderr).toMatch(
      /^backtest: the analyzer failed on 20 of 40 thread\(s\); first, sample-\d+: the analyzer command exited with code 3\n$/,
    );
  });

  it('on every thread: no numbers (they would measure nothing), an AnalyzerError with the first reason', async () => {
    const { ctx, stdout } = context({ json: true });
    const error = await failure(replayFile(SAMPLE, {}, ctx, failing(true)));
    expect(error).toBeInstanceOf(AnalyzerError);
    expect(error.message).toMatch(
      /^the command analyzer answered none of the 40 thread\(s\); first, sample-01: the analyzer command exited with code 3$/,
    );
    expect(stdout.text).toBe('');
  });
});

describe('what was measured', () => {
  it('the command or model is named in the heading and as analyzerDetail in --json', async () => {
    const named: Analyzer = { name: 'llm', analyze: builtinAnalyzer.analyze };
    const { ctx, stdout } = context({ json: true });
    await replayFile(SAMPLE, {}, ctx, named, 'qwen2.5:7b at http://127.0.0.1:11434');
    expect(JSON.parse(stdout.text)).toMatchObject({
      analyzer: 'llm',
      analyzerDetail: 'qwen2.5:7b at http://127.0.0.1:11434',
    });
    const human = context();
    await replayFile(SAMPLE, {}, human.ctx, named, 'qwen2.5:7b at http://127.0.0.1:11434');
    expect(human.stdout.text).toMatch(
      /^Backtest of examples\/backtest-sample\.json: analyzer llm \(qwen2\.5:7b at http:\/\/127\.0\.0\.1:11434\), profile/,
    );
  });
});
