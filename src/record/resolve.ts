import type { Sample } from './samples.js';
import { isPlausible, type PriceSeries } from './series.js';

// What a cell's price did over the 3 hours after a thread, from the series (docs/record.md#the-record-was-it-right):
// the nearest sample within 15 minutes of t0 + 3 h, or, better, two samples bracketing it at most 30
// minutes apart (linear between them). Nothing is decided while a better sample may still come: an
// outcome is written once.

export const HORIZON_MS = 3 * 60 * 60_000;
export const NEAREST_MS = 15 * 60_000;
export const BRACKET_MS = 30 * 60_000;
/** No price for this long after t0 + 3 h, by the series' own clock: the outcome is unknowable. */
export const GIVE_UP_MS = 6 * 60 * 60_000;
/** A realized move smaller than this, in %, is flat: neither right nor wrong. */
export const FLAT_PCT = 0.05;

export type PriceAt =
  | { status: 'priced'; price: number; samples: Sample[] }
  | { status: 'pending' }
  | { status: 'unresolvable'; reason: string };

/** The cell's price at `target` from its trusted samples (oldest first); `newestMs` is the series' present. */
export function priceAt(samples: readonly Sample[], target: number, newestMs: number): PriceAt {
  const after = firstAtOrAfter(samples, target);
  const later = samples[after];
  const before = later?.ms === target ? later : samples[after - 1];
  if (before && later && later.ms - before.ms <= BRACKET_MS) {
    if (later.ms === before.ms) return { status: 'priced', price: later.price, samples: [later] };
    const share = (target - before.ms) / (later.ms - before.ms);
    return { status: 'priced', price: before.price + share * (later.price - before.price), samples: [before, later] };
  }
  const nearest = [before, later]
    .filter((s): s is Sample => s !== undefined && Math.abs(s.ms - target) <= NEAREST_MS)
    .sort((a, b) => Math.abs(a.ms - target) - Math.abs(b.ms - target))[0];
  // The sample before the target alone is final only once no later one can bracket the target with it.
  const settled = later !== undefined || newestMs >= (before ? before.ms + BRACKET_MS : target + NEAREST_MS);
  if (nearest && settled) return { status: 'priced', price: nearest.price, samples: [nearest] };
  if (newestMs >= target + GIVE_UP_MS)
    return {
      status: 'unresolvable',
      reason: 'no price of the cell within 15 minutes of 3 hours after the thread, in the 6 hours after',
    };
  return { status: 'pending' };
}

export interface Realized {
  /** (p3h / p0 − 1) × 100, 3 decimals, as the sandbox rounds a move. */
  move: number;
  p0: number;
  t0: number;
  p3h: number;
  samples: Sample[];
  /** Samples near t0 + 3 h left out as absurd (series.ts): the outcome names them too. */
  dropped: Sample[];
}

export type Resolution =
  | ({ status: 'resolved' } & Realized)
  | { status: 'pending' }
  | { status: 'unresolvable'; reason: string };

/** The realized 3-hour move after the thread `threadId`, from its own price. */
export function resolveThread(series: PriceSeries, threadId: string, cell: string): Resolution {
  const own = series.byThread.get(threadId);
  if (!own) return { status: 'unresolvable', reason: 'the thread had no usable price when it was read' };
  if (series.suspect.has(threadId))
    return { status: 'unresolvable', reason: "the thread's own price is over 50% away from the cell's level" };
  const target = own.ms + HORIZON_MS;
  const at = priceAt(series.cells.get(own.cell) ?? series.cells.get(cell) ?? [], target, series.newestMs);
  if (at.status !== 'priced') return at;
  // Each kept price is within the checks of the one before; a chain of them is not a 3-hour move.
  if (!isPlausible(at.price, own.price))
    return {
      status: 'unresolvable',
      reason: `the price 3 hours on (${at.price}) is over 50% away from the thread's (${own.price})`,
    };
  const dropped = (series.dropped.get(own.cell) ?? []).filter((s) => Math.abs(s.ms - target) <= BRACKET_MS);
  return {
    status: 'resolved',
    move: roundMove((at.price / own.price - 1) * 100),
    p0: own.price,
    t0: own.ms,
    p3h: at.price,
    samples: at.samples,
    dropped,
  };
}

/** Right when the move has the conviction's sign; null (neither) when the move is flat. */
export function rightOf(conviction: number, move: number): boolean | null {
  if (Math.abs(move) < FLAT_PCT) return null;
  return Math.sign(move) === Math.sign(conviction);
}

export function roundMove(move: number): number {
  return Math.round(move * 1000) / 1000 || 0;
}

function firstAtOrAfter(samples: readonly Sample[], target: number): number {
  let low = 0;
  let high = samples.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if ((samples[mid]?.ms ?? 0) < target) low = mid + 1;
    else high = mid;
  }
  return low;
}
