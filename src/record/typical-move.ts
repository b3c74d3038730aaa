import type { TypicalMove } from '../domain/thread.js';
import { readLinesBackward } from './private-lines.js';
import { FLAT_PCT, HORIZON_MS, NEAREST_MS, priceAt } from './resolve.js';
import { parsePriceLine, pricesFile, type Sample } from './samples.js';
import { buildSeries } from './series.js';

// A cell's typical 3-hour move, measured from the prices the polls recorded (README "The record"): the root
// mean square of its 3-hour moves over the last 7 days, each priced as an outcome is (resolve.ts). Pairs
// start at least 15 minutes apart, so that a burst of threads does not count as many independent moves.
// With fewer than 30 pairs the written number stays (analysis/profile-numbers.ts).

export const MEASURE_SPAN_MS = 7 * 24 * 60 * 60_000;
export const MIN_PAIRS = 30;
const PAIR_SPACING_MS = NEAREST_MS;

/** The measured typical move of each cell with enough prices, from these samples, as of `now`. */
export function measureTypicalMoves(samples: Iterable<Sample>, now: number): Map<string, TypicalMove> {
  const series = buildSeries(samples);
  const since = now - MEASURE_SPAN_MS;
  const measured = new Map<string, TypicalMove>();
  for (const [cell, list] of series.cells) {
    let sumSquares = 0;
    let pairs = 0;
    let lastStart = Number.NEGATIVE_INFINITY;
    for (const sample of list) {
      if (sample.ms < since || sample.ms - lastStart < PAIR_SPACING_MS) continue;
      if (sample.ms + HORIZON_MS > series.newestMs) break;
      const later = priceAt(list, sample.ms + HORIZON_MS, series.newestMs);
      if (later.status !== 'priced') continue;
      const move = (later.price / sample.price - 1) * 100;
      sumSquares += move * move;
      pairs += 1;
      lastStart = sample.ms;
    }
    const pct = Math.round(Math.sqrt(sumSquares / Math.max(1, pairs)) * 100) / 100;
    // Prices that never move measure a broken feed, not a calm market.
    if (pairs >= MIN_PAIRS && pct >= FLAT_PCT) measured.set(cell, { pct, pairs });
  }
  return measured;
}

/** The recorded prices of the last 7 days (and the 3 hours their last moves need), measured. */
export function loadTypicalMoves(dir: string, now: number): Map<string, TypicalMove> {
  const samples: Sample[] = [];
  readLinesBackward(pricesFile(dir), (line) => {
    const parsed = parsePriceLine(line);
    if (parsed?.kind === 'sample') samples.push(parsed.sample);
    return parsed?.kind !== 'readAt' || parsed.ms >= now - MEASURE_SPAN_MS - NEAREST_MS;
  });
  return measureTypicalMoves(samples, now);
}
