// The feed: deterministic for a seed, steady in sandbox time, varied and realistic in content, priced on
// one path per cell, with texts that know the path's next 3 hours only loosely.
import { describe, expect, it } from 'vitest';
import { createFakeClock } from '../../src/sandbox/clock.js';
import { createFeed, generateThread } from '../../src/sandbox/feed.js';
import { MARKETS, formatLevel } from '../../src/sandbox/markets.js';
import { createSandbox } from '../../src/sandbox/server.js';
import { SandboxStore } from '../../src/sandbox/sandbox-store.js';
import { HOUR, MINUTE } from './helpers.js';

const T0 = Date.UTC(2025, 0, 6, 12, 0, 0);
const sample = (seed: number, count: number, spacing = MINUTE) =>
  Array.from({ length: count }, (_, i) => generateThread(seed, i, T0 + i * spacing));
// Far enough apart that a cell's 3-hour windows rarely overlap: each thread is a fresh draw of its path.
const APART = 37 * MINUTE;

describe('generateThread', () => {
  it('is a pure function of seed and index', () => {
    expect(generateThread(42, 7, T0)).toEqual(generateThread(42, 7, T0));
    expect(generateThread(42, 7, T0).text).not.toBe(generateThread(43, 7, T0).text);
  });

  it('writes many distinct texts over the main cells and a few others', () => {
    const threads = sample(1, 600);
    expect(new Set(threads.map((t) => t.text)).size).toBeGreaterThan(550);
    const cells = new Set(threads.map((t) => t.project_id));
    for (const cell of ['c/bitcoin', 'c/ethereum', 'c/solana', 'c/general']) expect(cells).toContain(cell);
    expect(cells.size).toBeGreaterThanOrEqual(7);
  });

  it('uses the vocabulary of crypto signals', () => {
    const corpus = sample(3, 800)
      .map((t) => t.text)
      .join('\n');
    for (const phrase of [
      'to Binance',
      'ETFs took in',
      'net outflows',
      'token unlock',
      'exploited',
      'list',
      'liquidated',
      'The Fed',
      'not bullish',
      'support',
      'resistance',
      'RSI',
      'no longer halted',
    ]) {
      expect(corpus, phrase).toContain(phrase);
    }
  });

  it('prices each cell near its market and cites sources with url and title', () => {
    for (const thread of sample(5, 300, APART)) {
      const market = MARKETS.find((m) => `c/${m.cell}` === thread.project_id)!;
      // A random walk wanders, but is pulled back towards the market's level: months stay within ±40%.
      expect(thread.price_on_fetch / market.price).toBeGreaterThan(0.6);
      expect(thread.price_on_fetch / market.price).toBeLessThan(1.6);
      for (const citation of thread.citations) {
        expect(citation.url).toMatch(/^https:\/\/[a-z.]+\/\S+$/);
        expect(citation.title.length).toBeGreaterThan(5);
      }
      expect(thread.outcome.path).toHaveLength(13);
      expect(thread.outcome.path[0]).toBe(thread.price_on_fetch);
    }
  });

  it('lets the text help without deciding: direction matches the move clearly above chance but far from always', () => {
    const threads = sample(11, 3000, APART);
    const directional = threads.filter((t) => t.outcome.direction !== 0 && t.outcome.strength >= 0.5);
    const agree =
      directional.filter((t) => Math.sign(t.outcome.movePct) === t.outcome.direction).length / directional.length;
    expect(agree).toBeGreaterThan(0.6);
    expect(agree).toBeLessThan(0.85);
    const noise = threads.filter((t) => t.outcome.direction === 0);
    const up = noise.filter((t) => t.outcome.movePct > 0).length / noise.length;
    expect(up).toBeGreaterThan(0.4);
    expect(up).toBeLessThan(0.6);
  });

  it('moves each cell by about its σ over 3 hours', () => {
    const moves = new Map<string, number[]>();
    for (const t of sample(13, 4000, APART))
      moves.set(t.project_id, [...(moves.get(t.project_id) ?? []), t.outcome.movePct]);
    for (const cell of ['bitcoin', 'ethereum', 'general']) {
      const sigma = MARKETS.find((m) => m.cell === cell)!.sigma;
      const values = moves.get(`c/${cell}`)!;
      const rms = Math.sqrt(values.reduce((s, v) => s + v * v, 0) / values.length);
      expect(rms / sigma, cell).toBeGreaterThan(0.8);
      expect(rms / sigma, cell).toBeLessThan(1.3);
    }
  });
});

describe('one price path per cell', () => {
  it("prices a cell's threads on one path, and scores each against the same path 3 hours on", () => {
    const threads = sample(21, 2000, 20_000).filter((t) => t.project_id === 'c/bitcoin');
    expect(threads.length).toBeGreaterThan(400);
    // The thread 3 hours after another of the same cell was priced where the earlier one's outcome ended.
    const byTime = new Map(threads.map((t) => [t.timestampMs, t]));
    let compared = 0;
    for (const thread of threads) {
      const later = byTime.get(thread.timestampMs + 3 * HOUR);
      if (!later) continue;
      compared += 1;
      expect(thread.outcome.priceOnEval).toBe(later.price_on_fetch);
      expect(thread.outcome.movePct).toBe(
        Math.round((later.price_on_fetch / thread.price_on_fetch - 1) * 100 * 1000) / 1000,
      );
    }
    expect(compared).toBeGreaterThan(50);
    // Neighbours a few seconds apart differ by little: a path, not a draw around a fixed price.
    const jumps = threads.slice(1).map((t, i) => Math.abs(t.price_on_fetch / threads[i]!.price_on_fetch - 1));
    expect(Math.max(...jumps)).toBeLessThan(0.01);
  });

  it('is the same path for the same seed, whenever a thread is generated', () => {
    const a = generateThread(3, 5, T0 + 17 * MINUTE);
    sample(3, 200, HOUR);
    const b = generateThread(3, 5, T0 + 17 * MINUTE);
    expect(b).toEqual(a);
  });
});

describe('createFeed', () => {
  it('creates threads at the rate in sandbox time, the same for the same seed', () => {
    const run = (seed: number) => {
      const clock = createFakeClock(T0);
      const store = new SandboxStore();
      const feed = createFeed({ seed, ratePerMinute: 2, store, clock });
      feed.catchUp();
      clock.advance(10 * MINUTE);
      feed.catchUp();
      return store.threads().map((t) => [t.id, t.timestamp, t.text]);
    };
    const first = run(9);
    expect(first).toHaveLength(20);
    expect(first[0]?.[1]).toBe(new Date(T0 + 30_000).toISOString());
    expect(run(9)).toEqual(first);
    expect(run(10)).not.toEqual(first);
  });

  it('does nothing at rate 0', () => {
    const clock = createFakeClock(T0);
    const store = new SandboxStore();
    const feed = createFeed({ seed: 1, ratePerMinute: 0, store, clock });
    clock.advance(HOUR);
    expect(feed.catchUp()).toEqual([]);
  });

  it('catches up at most 200 threads after a long stop, then keeps the rate', () => {
    const clock = createFakeClock(T0);
    const store = new SandboxStore();
    const feed = createFeed({ seed: 1, ratePerMinute: 1, store, clock });
    feed.catchUp();
    clock.advance(24 * HOUR);
    expect(feed.catchUp()).toHaveLength(200);
    clock.advance(MINUTE);
    expect(feed.catchUp()).toHaveLength(1);
  });

  it('backfills a fresh store over the past 4 hours, so some threads are locked already', async () => {
    const clock = createFakeClock(T0);
    const sandbox = createSandbox({ clock, backlog: 8, ratePerMinute: 1 });
    const threads = sandbox.store.threads();
    expect(threads).toHaveLength(8);
    expect(threads.every((t) => t.timestampMs < T0 && t.timestampMs >= T0 - 4 * HOUR)).toBe(true);
    expect(threads.filter((t) => t.scored)).toHaveLength(3); // 4 h, 3.5 h and exactly 3 h old
    expect(sandbox.feed.backfill(8)).toEqual([]);
  });

  it('runs inside the sandbox on each request or tick', () => {
    const clock = createFakeClock(T0);
    const sandbox = createSandbox({ clock, ratePerMinute: 6, seed: 4 });
    clock.advance(MINUTE);
    sandbox.tick();
    expect(sandbox.store.threads()).toHaveLength(6);
  });
});

describe('formatLevel', () => {
  it('writes a price level as a headline would', () => {
    expect(formatLevel(97_250.4)).toBe('$97,250');
    expect(formatLevel(3.31e12)).toBe('$3.31T');
    expect(formatLevel(181.256)).toBe('$181.26');
    expect(formatLevel(0.62104)).toBe('$0.6210');
  });
});
