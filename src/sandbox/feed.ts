// The automatic feed: new threads at a steady rate of sandbox time. Thread n of seed s is a pure function
// of (s, n, its timestamp), so two sandboxes with the same seed and clock serve the same threads, and a
// restart from --state continues the sequence where it stopped. Its price is its cell's path at its
// timestamp (price-path.ts), and its outcome the same path 3 hours on.
import type { Clock } from './clock.js';
import { HOUR_MS, MINUTE_MS } from './clock.js';
import { MARKETS, roundPrice } from './markets.js';
import { LOCK_AFTER_MS, outcomeOnPath } from './outcome.js';
import { pricePath } from './price-path.js';
import { createRng, mixSeed } from './random.js';
import type { ThreadRecord } from './records.js';
import type { SandboxStore } from './sandbox-store.js';
import { writeSignal } from './texts.js';

/** A sandbox left stopped for days does not flood its first poll: older missed slots are dropped. */
const MAX_CATCH_UP = 200;
/** The backlog at start spreads over this much past time, so some of it is already locked. */
const BACKLOG_SPAN_MS = 4 * HOUR_MS;

export function generateThread(seed: number, index: number, timestampMs: number): ThreadRecord {
  const rng = createRng(mixSeed(seed, index));
  const market = rng.weighted(MARKETS, (m) => m.weight);
  const path = pricePath(seed, market.cell);
  const price = roundPrice(path.at(timestampMs));
  // The text knows a little of the next 3 hours, in σ: the move as a z-score.
  const lean = (100 * Math.log(path.at(timestampMs + LOCK_AFTER_MS) / path.at(timestampMs))) / market.sigma;
  const signal = writeSignal(market, price, rng, timestampMs, lean);
  return {
    id: `th_${rng.hex(16)}`,
    pollen_id: `pl_${rng.hex(12)}`,
    project_id: `c/${market.cell}`,
    text: signal.text,
    timestamp: new Date(timestampMs).toISOString(),
    timestampMs,
    forcedLock: false,
    price_on_fetch: price,
    citations: signal.citations,
    outcome: outcomeOnPath(path, timestampMs, price, signal.direction, signal.strength),
    scored: false,
  };
}

export interface FeedOptions {
  seed: number;
  /** Threads per minute of sandbox time; 0 turns the automatic feed off. */
  ratePerMinute: number;
  store: SandboxStore;
  clock: Clock;
}

export interface Feed {
  readonly seed: number;
  readonly ratePerMinute: number;
  /** Creates the threads that have fallen due by now; returns them. */
  catchUp(): ThreadRecord[];
  /** On a fresh store only: `count` threads from the past few hours, so a first poll finds work. */
  backfill(count: number): ThreadRecord[];
}

export function createFeed({ seed, ratePerMinute, store, clock }: FeedOptions): Feed {
  const intervalMs = ratePerMinute > 0 ? MINUTE_MS / ratePerMinute : 0;

  function emit(timestampMs: number): ThreadRecord {
    const index = store.feed.nextIndex++;
    let thread = generateThread(seed, index, timestampMs);
    if (store.thread(thread.id)) thread = { ...thread, id: `${thread.id}_${index}` };
    store.addThread(thread);
    return thread;
  }

  return {
    seed,
    ratePerMinute,
    catchUp() {
      if (intervalMs === 0) return [];
      const now = clock.now();
      if (store.feed.nextAtMs === null) {
        store.feed.nextAtMs = now + intervalMs;
        store.touch();
        return [];
      }
      const created: ThreadRecord[] = [];
      while (store.feed.nextAtMs <= now && created.length < MAX_CATCH_UP) {
        created.push(emit(store.feed.nextAtMs));
        store.feed.nextAtMs += intervalMs;
      }
      if (store.feed.nextAtMs <= now) store.feed.nextAtMs = now + intervalMs;
      return created;
    },
    backfill(count) {
      if (store.feed.nextIndex > 0 || count <= 0) return [];
      const now = clock.now();
      const spacing = BACKLOG_SPAN_MS / count;
      return Array.from({ length: count }, (_, i) => emit(Math.round(now - (count - i) * spacing)));
    },
  };
}
