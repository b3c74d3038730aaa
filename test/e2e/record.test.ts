import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSandboxClock, HOUR_MS } from '../../src/sandbox/index.js';
import { measureTypicalMoves } from '../../src/record/typical-move.js';
import { BULLISH, minutesAgo, modeOf, PROFILE_FLAGS, registeredWorlds, type World } from './harness.js';

// The record (docs/record.md#the-record-was-it-right): every thread's price as the polls read it, and each post's real
// 3-hour outcome from those prices, checked against the sandbox's own path and scoring.

/**
 * Whether the sandbox's own move is farther from zero than the resolved move can miss it by (the farther of
 * the outcome's two samples from the sandbox's price at the target bounds that miss), and than a flat move.
 */
function clearOf(outcome: NonNullable<Entry['outcome']>, sandboxMove: number): boolean {
  const moves = outcome.samples!.map((x) => (x.price / outcome.price0! - 1) * 100);
  const miss = Math.max(...moves.map((move) => Math.abs(move - sandboxMove)));
  // Beyond the flat band too (0.05 for the agent; the sandbox's own scoring near zero is its own).
  return Math.abs(sandboxMove) > miss + 0.1;
}
const registered = registeredWorlds();

const jsonLines = (file: string) =>
  fs
    .readFileSync(file, 'utf8')
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line));

interface Entry {
  kind: string;
  threadId?: string;
  conviction?: number;
  outcome?: {
    move: number | null;
    right: boolean | null;
    resolvedAt: string;
    price0?: number;
    samples?: Array<{ threadId: string; ts: string; price: number }>;
  };
}

async function historyEntries(w: World): Promise<Entry[]> {
  const result = await w.agent(['history', '--json', '--limit', '100000']);
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout).entries;
}

describe('the record of prices', () => {
  it("a poll records every thread's price, open or locked, and the open ones' texts, privately; a dry run nothing", async () => {
    const w = await registered();
    w.sandbox.addThread({ id: 'open', text: BULLISH, project_id: 'c/bitcoin', timestamp: minutesAgo(3) });
    w.sandbox.addThread({ id: 'shut', project_id: 'c/ethereum', timestamp: minutesAgo(2), locked: true });
    const prices = path.join(w.configDir, 'prices.jsonl');
    const texts = path.join(w.configDir, 'threads.jsonl');
    expect((await w.agent(['poll', '--dry-run'])).code).toBe(0);
    expect(fs.existsSync(prices)).toBe(false);

    expect((await w.agent(['poll'])).code).toBe(0);
    expect(modeOf(prices)).toBe('600');
    expect(modeOf(texts)).toBe('600');
    const samples = jsonLines(prices)
      .filter((line) => line.id)
      .sort((a, b) => (a.id < b.id ? -1 : 1));
    const served = (id: string) => w.sandbox.store.thread(id)!;
    expect(samples).toEqual(
      ['open', 'shut'].map((id) => ({
        id,
        cell: served(id).project_id.slice(2),
        ts: served(id).timestamp,
        price: served(id).price_on_fetch,
      })),
    );
    expect(jsonLines(texts).map((t) => [t.id, t.text])).toEqual([['open', BULLISH]]);
    const key = w.state().apiKey;
    for (const file of [prices, texts]) expect(fs.readFileSync(file, 'utf8')).not.toContain(key);

    // Nothing to replay yet: its 3-hour price is still to come. A file and --recorded are one or the other.
    const early = await w.agent(['backtest', '--recorded']);
    expect([early.code, early.stderr]).toEqual([2, expect.stringMatching(/nothing to replay: .*1 pending/)]);
    expect((await w.agent(['backtest', 'x.json', '--recorded'])).code).toBe(2);
    expect((await w.agent(['backtest', 'x.json', '--since', '7d'])).code).toBe(2);
    expect((await w.agent(['backtest'])).stderr).toMatch(/missing the file to replay/);

    // Nothing new: the files stay as they were.
    const before = fs.readFileSync(prices, 'utf8');
    expect((await w.agent(['poll'])).code).toBe(0);
    expect(fs.readFileSync(prices, 'utf8')).toBe(before);
  });

  it('a FIFO in place of prices.jsonl: the poll neither waits on it nor fails, and says so once', async () => {
    const w = await registered();
    execFileSync('mkfifo', ['-m', '600', path.join(w.configDir, 'prices.jsonl')]);
    w.sandbox.addThread({ id: 'up', text: BULLISH, project_id: 'c/bitcoin', timestamp: minutesAgo(3) });
    const poll = await w.agent(['poll', '--json'], { timeoutMs: 10_000 });
    expect(poll.code, poll.stderr).toBe(0);
    expect(JSON.parse(poll.stdout).posted).toHaveLength(1);
    expect(poll.stderr.match(/could not add to the price record .*not a regular file/g)).toHaveLength(1);
    // A command that reads the record says what is there and how to fix it: no "bug".
    const backtest = await w.agent(['backtest', '--recorded'], { timeoutMs: 10_000 });
    expect(backtest.code).toBe(1);
    expect(backtest.stderr).toContain('prices.jsonl is a FIFO, not a regular file');
    expect(backtest.stderr).toMatch(/mv '.*prices\.jsonl'/);
    expect(backtest.stderr).not.toContain('bug');
  });

  it("after an hour of 240x time, each resolved post's move and direction, and stats' record, match the sandbox's own scoring", async () => {
    // The sandbox's clock starts 4 hours behind this machine's and runs 240 times faster: its threads are
    // never dated ahead of the agent's clock, and an hour of it passes in 15 s. A backlog over the 4 hours
    // before its start gives the first poll open threads that lock, and resolve, within that hour.
    const speed = 240;
    const clock = createSandboxClock({ start: Date.now() - 4 * HOUR_MS, speed });
    const w = await registered({ clock, autoTick: true, seed: 23, ratePerMinute: 12, backlog: 100 });
    const start = clock.now();
    while (clock.now() < start + HOUR_MS + 5 * 60_000) {
      const run = await w.agent(['poll', '--limit', '100']);
      expect(run.code, run.stderr).toBe(0);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }

    const posts = (await historyEntries(w)).filter((e) => e.kind === 'post');
    const resolved = posts.filter((p) => p.outcome && p.outcome.move !== null);
    expect(resolved.length).toBeGreaterThanOrEqual(8);
    expect(posts.filter((p) => p.outcome && p.outcome.move === null)).toEqual([]);
    const comments = new Map(w.sandbox.comments().map((c) => [c.thread_id, c]));
    let agreed = 0;
    for (const post of resolved) {
      const id = post.threadId!;
      const thread = w.sandbox.store.thread(id)!;
      const scored = comments.get(id)!;
      const outcome = post.outcome!;
      expect(post.conviction).toBe(scored.conviction);
      // The prices it used are exactly the sandbox's, at the threads' own times: its p0 is the thread's
      // price, and each named sample another thread of the same cell as the sandbox served it.
      expect(outcome.price0, id).toBe(thread.price_on_fetch);
      for (const sample of outcome.samples!) {
        const served = w.sandbox.store.thread(sample.threadId)!;
        expect([sample.ts, sample.price, served.project_id]).toEqual([
          served.timestamp,
          served.price_on_fetch,
          thread.project_id,
        ]);
      }
      // The move it gives is exactly what its named prices say: p0, and the line between its samples.
      const target = Date.parse(thread.timestamp) + 3 * HOUR_MS;
      const [a, b = a] = outcome.samples!.map((x) => ({ ms: Date.parse(x.ts), price: x.price }));
      const p3h = a!.ms === b!.ms ? a!.price : a!.price + ((target - a!.ms) / (b!.ms - a!.ms)) * (b!.price - a!.price);
      expect(Math.abs(outcome.move! - (p3h / outcome.price0! - 1) * 100), id).toBeLessThan(0.001);
      // The line between two samples misses the path the sandbox scores against by at most as much as the
      // farther sample does (a line lies between its ends). Where the sandbox's move is beyond that miss,
      // both say the same direction: docs/record.md#the-record-was-it-right.
      if (!clearOf(outcome, thread.outcome.movePct)) continue;
      // Beyond that: right exactly where the sandbox awarded honey, wrong where it awarded wax.
      expect(outcome.right, id).toBe((scored.honey ?? 0) > 0);
      expect(outcome.right, id).toBe(!((scored.wax ?? 0) > 0));
      agreed += 1;
    }
    expect(agreed).toBeGreaterThanOrEqual(6);

    // `agent stats --json`: the record sums up exactly these outcomes, and its hit rate is the sandbox's
    // own over the same posts (those priced between samples minutes apart, clear of the flat band).
    const stats = await w.agent(['stats', '--json', '--since', '1d']);
    expect(stats.code, stats.stderr).toBe(0);
    const record = JSON.parse(stats.stdout).record;
    const count = (right: boolean | null) => resolved.filter((p) => p.outcome!.right === right).length;
    expect(record).toMatchObject({
      resolved: resolved.length,
      right: count(true),
      wrong: count(false),
      flat: count(null),
      pending: posts.length - resolved.length,
      unresolvable: 0,
    });
    const clear = resolved.filter((p) => clearOf(p.outcome!, w.sandbox.store.thread(p.threadId!)!.outcome.movePct));
    const honeyed = clear.filter((p) => (comments.get(p.threadId!)!.honey ?? 0) > 0).length;
    expect(clear.filter((p) => p.outcome!.right).length).toBe(honeyed);
    if (clear.length === resolved.length)
      expect(record.hitRate).toBe(Math.round((honeyed / clear.length) * 1000) / 1000);
    expect(record.hitRateLow).toBeLessThanOrEqual(record.hitRate);
    expect(record.hitRateHigh).toBeGreaterThanOrEqual(record.hitRate);
    const cells = Object.values(record.byCell) as Array<{ resolved: number }>;
    expect(cells.reduce((sum, c) => sum + c.resolved, 0)).toBe(resolved.length);
    const rows = record.calibration as Array<{ posts: number }>;
    expect(rows.reduce((sum, row) => sum + row.posts, 0)).toBe(resolved.length);

    // `agent history` shows each outcome beside its post: the move and a tick, a cross or a dot.
    const text = (await w.agent(['history', '--limit', '100000'])).stdout.split('\n');
    for (const post of resolved) {
      const { move, right } = post.outcome!;
      const mark = right === null ? '\u00b7' : right ? '\u2713' : '\u2717';
      const shown = `${move! > 0 ? '+' : ''}${move!.toFixed(2)}% ${mark}`;
      expect(
        text.find((line) => line.includes(` ${post.threadId} `)),
        post.threadId,
      ).toContain(shown);
    }
    expect(text.filter((line) => /posted .*\u2026 /.test(line)).length).toBe(posts.length - resolved.length);

    // `backtest --recorded` with the agent's own profile replays the open threads it read, each against
    // its realized move, and decides on each exactly as the polls did: the same posts, the same sizes.
    const replay = await w.agent(['backtest', '--recorded', '--json', ...PROFILE_FLAGS]);
    expect(replay.code, replay.stderr).toBe(0);
    const report = JSON.parse(replay.stdout);
    const replayed = new Map<string, { action: string; conviction?: number; actualMovePct: number }>(
      report.threads.map((t: { threadId: string }) => [t.threadId, t]),
    );
    for (const post of resolved) {
      expect(replayed.get(post.threadId!), post.threadId).toMatchObject({
        action: 'post',
        conviction: post.conviction,
        actualMovePct: post.outcome!.move,
      });
    }
    expect(report.recorded).toMatchObject({ ran: { posted: resolved.length }, unresolvable: 0 });
    expect(report.recorded.pending).toBeGreaterThan(0);
  }, 90_000);

  it('absurd prices never set an outcome, a good one outnumbered by them still does, and history names both', async () => {
    const w = await registered();
    const iso = (minutes: number) => minutesAgo(minutes);
    const post = (id: string, cell: string, conviction: number) =>
      JSON.stringify({ ts: iso(239), kind: 'post', threadId: id, cell, conviction, text: 'x', analyzer: 'builtin' });
    fs.writeFileSync(
      path.join(w.configDir, 'history.jsonl'),
      `${post('P', 'bitcoin', 1.2)}\n${post('Q', 'ethereum', -1)}\n`,
      {
        mode: 0o600,
      },
    );
    const sample = (id: string, cell: string, minutes: number, price: number) =>
      JSON.stringify({ id, cell, ts: iso(minutes), price });
    const lines = [
      JSON.stringify({ readAt: iso(240) }),
      sample('P', 'bitcoin', 240, 100),
      sample('Q', 'ethereum', 240, 100),
      JSON.stringify({ readAt: iso(20) }),
      sample('X1', 'bitcoin', 61, 1e15),
      sample('X2', 'bitcoin', 59, 1e15),
      sample('Y1', 'ethereum', 61, 100.2),
      sample('Y2', 'ethereum', 59, 0.0000001),
      sample('Y3', 'ethereum', 58, 0.0000001),
      sample('Y4', 'ethereum', 21, 100.02),
    ];
    fs.writeFileSync(path.join(w.configDir, 'prices.jsonl'), `${lines.join('\n')}\n`, { mode: 0o600 });
    w.sandbox.addThread({
      id: 'new',
      text: 'nothing',
      project_id: 'c/bitcoin',
      timestamp: minutesAgo(1),
      price_on_fetch: 100,
    });
    expect((await w.agent(['poll'])).code).toBe(0);
    const history = JSON.parse((await w.agent(['history', '--json'])).stdout) as {
      entries: Array<{ threadId?: string; outcome?: Record<string, unknown> }>;
    };
    const outcome = (id: string) => history.entries.find((entry) => entry.threadId === id)?.outcome;
    // P: the only prices near 3 hours on are absurd; nothing is recorded yet (pending), never +1e15%.
    expect(outcome('P')?.move ?? null).toBeNull();
    expect(outcome('Q')).toMatchObject({
      move: 0.2,
      right: false,
      samples: [{ threadId: 'Y1' }],
      dropped: [{ threadId: 'Y2' }, { threadId: 'Y3' }],
    });
  });

  it("sizes posts by a cell's typical move measured from a week of recorded prices, and says so", async () => {
    const w = await registered();
    // A week of bitcoin far livelier than its written 0.9%: a thread every 10 minutes, swinging 4% every 3 hours.
    const now = Date.now();
    const samples = Array.from({ length: 7 * 144 }, (_, i) => {
      const ms = now - (7 * 144 - i) * 600_000;
      return {
        threadId: `past${i}`,
        cell: 'bitcoin',
        ms,
        price: 90_000 * (1 + 0.02 * Math.sin((2 * Math.PI * ms) / (6 * HOUR_MS))),
      };
    });
    const measured = measureTypicalMoves(samples, now).get('bitcoin')!;
    expect(measured.pct).toBeGreaterThan(2.7);
    fs.writeFileSync(
      path.join(w.configDir, 'prices.jsonl'),
      samples
        .map(
          (s) =>
            `${JSON.stringify({ readAt: new Date(s.ms).toISOString() })}\n${JSON.stringify({ id: s.threadId, cell: s.cell, ts: new Date(s.ms).toISOString(), price: s.price })}\n`,
        )
        .join(''),
      { mode: 0o600 },
    );
    w.sandbox.addThread({ id: 'up', text: BULLISH, project_id: 'c/bitcoin', timestamp: minutesAgo(2) });

    const analyzed = await w.agent(['analyze', 'up', '--verbose']);
    // The run measures as of its own clock, a moment after this test's: the same week, give or take a pair.
    const said = /typical 3h move ([\d.]+)%, measured from (\d+) prices, held to 2\.7%/.exec(analyzed.stdout);
    expect(said, analyzed.stdout).not.toBeNull();
    expect(Number(said?.[1])).toBeGreaterThan(2.7);
    expect(Math.abs(Number(said?.[2]) - measured.pairs)).toBeLessThanOrEqual(2);
    const polled = await w.agent(['poll', '--json']);
    expect(polled.code, polled.stderr).toBe(0);
    const [post] = JSON.parse(polled.stdout).posted;
    // Beyond the largest size the written 0.9% allows a moderate profile (1.5 × 0.9, rounded down: 1.3).
    expect(post.conviction).toBeGreaterThan(1.3);
    // Sized by the measured move, held within 3× of the written one (docs/record.md#the-record-was-it-right).
    expect(post.conviction).toBeLessThanOrEqual(Math.floor(1.5 * 3 * 0.9 * 10) / 10);
  });
});
