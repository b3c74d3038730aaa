import { describe, expect, it } from 'vitest';
import { ANALYSIS_CONCURRENCY } from '../../src/analysis/concurrency.js';
import { builtinAnalyzer } from '../../src/analysis/index.js';
import { UnreachableError } from '../../src/analysis/llm/retry.js';
import type { Analyzer, AnalyzerOutput } from '../../src/analysis/types.js';
import { parseBacktestData, type BacktestThread } from '../../src/backtest/file.js';
import { actualMovePct, runBacktestOn, threadAtItsTime } from '../../src/backtest/replay.js';
import type { Profile } from '../../src/domain/profile.js';
import type { Thread } from '../../src/domain/thread.js';
import { AnalyzerError } from '../../src/errors.js';

const PROFILE: Profile = {
  signal_method: 'sentiment',
  conviction_style: 'moderate',
  directional_bias: 'neutral',
  participation: 'moderate',
};

function record(id: string, overrides: Partial<BacktestThread> = {}): BacktestThread {
  const timestamp = overrides.timestamp ?? '2026-03-02T08:00:00Z';
  return {
    id,
    project_id: 'c/bitcoin',
    text: 'some text',
    timestamp,
    timestampMs: Date.parse(timestamp),
    price_on_fetch: 100,
    price_on_eval: 101,
    citations: [],
    ...overrides,
  };
}

const post = (conviction: number): AnalyzerOutput => ({
  kind: 'decision',
  action: 'post',
  conviction,
  text: 'A summary long enough to be posted as it is.',
});
const skip = (reason: string): AnalyzerOutput => ({ kind: 'decision', action: 'skip', reason });

/** Answers by thread id; an Error in the script is thrown instead. */
function scripted(answers: Record<string, AnalyzerOutput | Error>): Analyzer & { seen: Thread[] } {
  const seen: Thread[] = [];
  return {
    name: 'scripted',
    seen,
    async analyze(thread) {
      seen.push(thread);
      const answer = answers[thread.id];
      if (answer === undefined) throw new Error(`no answer for ${thread.id}`);
      if (answer instanceof Error) throw answer;
      return answer;
    },
  };
}

describe('metrics, on a hand-made case', () => {
  // bitcoin σ 0.9, solana σ 1.5 (profile-numbers.ts); honey and wax by the sandbox's rule at age 0.
  const threads = [
    record('t1', { price_on_eval: 101 }), // +1.000, post +1.0: right, exact → honey 20
    record('t2', { price_on_eval: 99.1 }), // -0.900, post +0.5: wrong by 1.4 = 1.56σ → wax round(5 × 2.56) = 13
    record('t3', { price_on_eval: 100 }), // 0, post -0.3: a move of 0 has no sign, so not right; no award
    record('t4'), // skipped
    record('t5'), // the analyzer failed
    record('t6', { project_id: 'Solana', price_on_fetch: 200, price_on_eval: 203 }), // +1.5, post +1.2: off 0.2σ → honey round(20 / 1.2) = 17
    record('t7', { project_id: 'c/ethereum' }), // skipped: a cell with no post
  ];
  const analyzer = scripted({
    t1: post(1),
    t2: post(0.5),
    t3: post(-0.3),
    t4: skip('nothing to read'),
    t5: new AnalyzerError('timed out after 30 s'),
    t6: post(1.2),
    t7: skip('quiet'),
  });

  it('per thread: the action, the actual move, whether it was right, and what it earned', async () => {
    const report = await runBacktestOn(threads, analyzer, PROFILE);
    expect(report.threads).toEqual([
      {
        threadId: 't1',
        cell: 'bitcoin',
        action: 'post',
        conviction: 1,
        actualMovePct: 1,
        right: true,
        honey: 20,
        wax: 0,
      },
      {
        threadId: 't2',
        cell: 'bitcoin',
        action: 'post',
        conviction: 0.5,
        actualMovePct: -0.9,
        right: false,
        honey: 0,
        wax: 13,
      },
      {
        threadId: 't3',
        cell: 'bitcoin',
        action: 'post',
        conviction: -0.3,
        actualMovePct: 0,
        right: false,
        honey: 0,
        wax: 0,
      },
      {
        threadId: 't4',
        cell: 'bitcoin',
        action: 'skip',
        actualMovePct: 1,
        honey: 0,
        wax: 0,
        reason: 'nothing to read',
      },
      {
        threadId: 't5',
        cell: 'bitcoin',
        action: 'failed',
        actualMovePct: 1,
        honey: 0,
        wax: 0,
        reason: 'timed out after 30 s',
      },
      {
        threadId: 't6',
        cell: 'solana',
        action: 'post',
        conviction: 1.2,
        actualMovePct: 1.5,
        right: true,
        honey: 17,
        wax: 0,
      },
      { threadId: 't7', cell: 'ethereum', action: 'skip', actualMovePct: 1, honey: 0, wax: 0, reason: 'quiet' },
    ]);
  });

  it('overall and per cell: counts, coverage = posted / threads, accuracy = right / posted, mae over posts', async () => {
    const report = await runBacktestOn(threads, analyzer, PROFILE);
    expect(report.overall).toEqual({
      threads: 7,
      posted: 4,
      skipped: 2,
      failed: 1,
      right: 2,
      coverage: 0.571, // 4 / 7
      accuracy: 0.5, // 2 / 4
      mae: 0.5, // (0 + 1.4 + 0.3 + 0.3) / 4
      honey: 37,
      wax: 13,
    });
    expect(report.cells).toEqual({
      bitcoin: {
        threads: 5,
        posted: 3,
        skipped: 1,
        failed: 1,
        right: 1,
        coverage: 0.6,
        accuracy: 0.333,
        mae: 0.57,
        honey: 20,
        wax: 13,
      },
      ethereum: {
        threads: 1,
        posted: 0,
        skipped: 1,
        failed: 0,
        right: 0,
        coverage: 0,
        accuracy: null,
        mae: null,
        honey: 0,
        wax: 0,
      },
      solana: {
        threads: 1,
        posted: 1,
        skipped: 0,
        failed: 0,
        right: 1,
        coverage: 1,
        accuracy: 1,
        mae: 0.3,
        honey: 17,
        wax: 0,
      },
    });
    expect(Object.keys(report.cells)).toEqual(['bitcoin', 'ethereum', 'solana']);
  });

  it("sizes go through the policy: an analyzer's oversized conviction is measured as clamped", async () => {
    const report = await runBacktestOn([record('big', { price_on_eval: 102 })], scripted({ big: post(9) }), PROFILE);
    // moderate tops out at 1.5σ: 1.35 on bitcoin, rounded down to 1.3
    expect(report.threads[0]).toMatchObject({ action: 'post', conviction: 1.3, actualMovePct: 2 });
    expect(report.overall.mae).toBe(0.7);
  });
});

describe('replay', () => {
  it('goes oldest first, by instant (offsets included) then id, whatever the file order', async () => {
    const threads = [
      record('c', { timestamp: '2026-03-02T09:00:00Z' }),
      record('b', { timestamp: '2026-03-02T10:30:00+02:00' }), // 08:30Z
      record('z', { timestamp: '2026-03-02T08:00:00Z' }),
      record('a', { timestamp: '2026-03-02T08:00:00.000Z' }),
    ];
    const analyzer = scripted(Object.fromEntries(threads.map((t) => [t.id, skip('x')])));
    const report = await runBacktestOn(threads, analyzer, PROFILE);
    expect(analyzer.seen.map((t) => t.id)).toEqual(['a', 'z', 'b', 'c']);
    expect(report.threads.map((t) => t.threadId)).toEqual(['a', 'z', 'b', 'c']);
    expect(threads.map((t) => t.id)).toEqual(['c', 'b', 'z', 'a']);
  });

  it('reports progress after every thread', async () => {
    const calls: Array<[number, number]> = [];
    await runBacktestOn([record('a'), record('b')], scripted({ a: skip('x'), b: skip('x') }), PROFILE, (done, total) =>
      calls.push([done, total]),
    );
    expect(calls).toEqual([
      [1, 2],
      [2, 2],
    ]);
  });

  it('counts an analyzer that cannot answer as failed and goes on; its message is one clean line', async () => {
    const analyzer = scripted({ a: new AnalyzerError('crashed:\n\u001b[31mexit 1'), b: post(1) });
    const report = await runBacktestOn(
      [record('a'), record('b', { timestamp: '2026-03-02T09:00:00Z' })],
      analyzer,
      PROFILE,
    );
    expect(report.threads[0]).toMatchObject({ action: 'failed', reason: 'crashed: exit 1' });
    expect(report.threads[1]).toMatchObject({ action: 'post' });
    expect(report.overall).toMatchObject({ threads: 2, posted: 1, failed: 1, coverage: 0.5 });
  });

  it('stops on any other error: a bug is not a failed thread', async () => {
    await expect(runBacktestOn([record('a')], scripted({ a: new TypeError('bug') }), PROFILE)).rejects.toThrow(
      TypeError,
    );
  });
});

describe('the analyzer never sees the outcome', () => {
  const OUTCOME = 104729.113;
  const entry = {
    id: 42,
    pollen_id: 'pl_1',
    project_id: 'c/Bitcoin',
    text: 'Spot bitcoin ETFs took in $400M of net inflows yesterday.',
    timestamp: '2026-03-02T08:00:00+01:00',
    locked: true,
    price_on_fetch: 97000.5,
    price_on_eval: OUTCOME,
    future_high: 105000.25,
    comments: [{ conviction: 2.5 }],
    citations: [{ url: 'https://news.example/a', title: 'Inflows', price_on_eval: OUTCOME }, { title: 'Only a title' }],
  };

  it("gets exactly the Thread of the thread's own time, built field by field", async () => {
    const recording = scripted({ '42': skip('x') });
    const { threads } = parseBacktestData([entry], 'f');
    await runBacktestOn(threads, recording, PROFILE);
    expect(recording.seen).toHaveLength(1);
    const expected: Thread = {
      id: '42',
      cell: 'bitcoin',
      projectId: 'c/Bitcoin',
      text: entry.text,
      timestamp: '2026-03-02T08:00:00+01:00',
      locked: false,
      priceOnFetch: 97000.5,
      citations: [{ url: 'https://news.example/a', title: 'Inflows' }, { title: 'Only a title' }],
    };
    expect(recording.seen[0]).toStrictEqual(expected);
    const shown = JSON.stringify(recording.seen[0]);
    for (const leak of [String(OUTCOME), 'price_on_eval', 'future_high', '105000.25', 'comments', 'pollen_id'])
      expect(shown).not.toContain(leak);
  });

  it('even when handed a record that carries more than its type says', () => {
    const smuggled = { ...record('a'), price_on_eval: OUTCOME, extra: 'x' } as BacktestThread;
    expect(Object.keys(threadAtItsTime(smuggled)).sort()).toEqual([
      'cell',
      'citations',
      'id',
      'locked',
      'priceOnFetch',
      'projectId',
      'text',
      'timestamp',
    ]);
    expect(JSON.stringify(threadAtItsTime(smuggled))).not.toContain(String(OUTCOME));
  });
});

describe('actualMovePct', () => {
  it.each([
    [100, 101, 1],
    [100, 99.1, -0.9],
    [64000, 64000, 0],
    [0.5612, 0.5465, -2.619],
    [3.262e12, 3.2907e12, 0.88],
  ])('from %s to %s is a move of %s percent, to 3 decimals as the sandbox rounds it', (from, to, pct) => {
    expect(actualMovePct({ price_on_fetch: from, price_on_eval: to })).toBe(pct);
  });
});

it('the built-in analyzer runs through it unchanged: the same decisions as analyzing each thread alone', async () => {
  const threads = [
    record('up', { text: 'Spot bitcoin ETFs took in $400M of net inflows yesterday, the fifth straight day.' }),
    record('down', { text: 'A whale moved 4,000 BTC to Binance; exchange inflows are rising.', price_on_eval: 99 }),
    record('quiet', { text: 'Bitcoin developers will speak at a conference next month.' }),
  ];
  const report = await runBacktestOn(threads, builtinAnalyzer, PROFILE);
  expect(report.threads.map((t) => [t.threadId, t.action, Math.sign(t.conviction ?? 0)])).toEqual([
    ['down', 'post', -1],
    ['quiet', 'skip', 0],
    ['up', 'post', 1],
  ]);
});

describe('side by side, and not against a server that is not there', () => {
  const unreachable = () =>
    new AnalyzerError('cannot reach m at http://127.0.0.1:9 (ECONNREFUSED) (tried twice)', {
      cause: new UnreachableError('cannot reach m', 'a network error'),
    });
  const records = (n: number) => Array.from({ length: n }, (_, i) => record(`t${String(i).padStart(2, '0')}`));

  it('reads as many threads at once as it is told, started in order, reported in order', async () => {
    let inFlight = 0;
    let most = 0;
    const started: string[] = [];
    const analyzer: Analyzer = {
      name: 'slow',
      async analyze(thread) {
        started.push(thread.id);
        most = Math.max(most, ++inFlight);
        await new Promise((resolve) => setTimeout(resolve, 5));
        inFlight -= 1;
        return skip('quiet');
      },
    };
    const report = await runBacktestOn(records(10), analyzer, PROFILE, undefined, ANALYSIS_CONCURRENCY);
    expect(most).toBe(ANALYSIS_CONCURRENCY);
    expect(started).toEqual(records(10).map((r) => r.id));
    expect(report.threads.map((t) => t.threadId)).toEqual(records(10).map((r) => r.id));
  });

  it('stops with one error after three threads in a row could not reach the analyzer', async () => {
    const analyzer = scripted(Object.fromEntries(records(40).map((r) => [r.id, unreachable()])));
    const error = await runBacktestOn(records(40), analyzer, PROFILE).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AnalyzerError);
    expect((error as Error).message).toBe(
      'stopped after 3 threads in a row could not reach the analyzer: cannot reach m at http://127.0.0.1:9 (ECONNREFUSED) (tried twice)',
    );
    expect(analyzer.seen).toHaveLength(3);
  });

  it('goes on when the failures are not in a row, or not about reaching the analyzer', async () => {
    const answers: Record<string, AnalyzerOutput | Error> = {};
    for (const [i, r] of records(12).entries()) answers[r.id] = i % 3 === 2 ? skip('quiet') : unreachable();
    expect((await runBacktestOn(records(12), scripted(answers), PROFILE)).overall.failed).toBe(8);
    const timeouts = scripted(
      Object.fromEntries(
        records(6).map((r) => [r.id, new AnalyzerError('m gave no complete answer within 60 s (tried twice)')]),
      ),
    );
    expect((await runBacktestOn(records(6), timeouts, PROFILE)).overall.failed).toBe(6);
  });
});
