import type { TypicalMove } from '../domain/thread.js';
import { readLinesBackward } from './private-lines.js';
import { FLAT_PCT, HORIZON_MS, NEAREST_MS, priceAt } from './resolve.js';
import { parsePriceLine, pricesFile, type Sample } from './samples.js';
import { buildSeries } from './series.js';

// A cell's typical 3-hour move, measured from the prices the polls recorded (docs/record.md#the-record-was-it-right): its
// 3-hour moves over the last 7 days, each priced as an outcome is (resolve.ts), summed up as σ by their
// median size (for normal moves, median |move| = 0.6745 σ). A median, not a root mean square: one absurd
// price a service sent would rule a mean of squares, and with it every post's size. Pairs start at least
// 15 minutes apart, so that a burst of threads does not count as many independent moves. With fewer than 30
// pairs the written number stays (analysis/profile-numbers.ts), which also bounds what is measured
// (analysis/typical-move.ts).

export const MEASURE_SPAN_MS = 7 * 24 * 60 * 60_000;
export const MIN_PAIRS = 30;
const PAIR_SPACING_MS = NEAREST_MS;

/** The measured typical move of each cell with enough prices, from these samples, as of `now`. */
export function measureTypicalMoves(samples: Iterable<Sample>, now: number): Map<string, TypicalMove> {
  const series = buildSeries(samples);
  const since = now - MEASURE_SPAN_MS;
  const measured = new Map<string, TypicalMove>();
  for (const [cell, list] of series.cells) {
    const sizes: number[] = [];
    let lastStart = Number.NEGATIVE_INFINITY;
    for (const sample of list) {
      if (sample.ms < since || sample.ms - lastStart < PAIR_SPACING_MS) continue;
      if (sample.ms + HORIZON_MS > series.newestMs) break;
      const later = priceAt(list, sample.ms + HORIZON_MS, series.newestMs);
      if (later.status !== 'priced') continue;
      sizes.push(Math.abs((later.price / sample.price - 1) * 100));
      lastStart = sample.ms;
    }
    const pct = Math.round((median(sizes) / MEDIAN_ABS_PER_SIGMA) * 100) / 100;
    // Prices that never move measure a broken feed, not a calm market.
    if (sizes.length >= MIN_PAIRS && pct >= FLAT_PCT) measured.set(cell, { pct, pairs: sizes.length });
  }
  return measured;
}

const MEDIAN_ABS_PER_SIGMA = 0.6745;

function median(values: number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

/** The recorded prices of the last 7 days (and the 3 hours their last moves need), measured. */
export function loadTypicalMoves(dir: string, now: number): Map<string, TypicalMove> {
  const samples: Sample[] = [];
  readLinesBackward(pricesFile(dir), (line) => {
    const parsed = parsePriceLine(line);
    if (parsed?.kind === 'sample') samples.push(parsed.sample);
    return parsed?.kind !== 'readAt' || parsed.ms >= now - MEASURE_SPAN_MS - NEAREST_MS;
  });
  // Read newest first; a series keeps the first price recorded for a thread (series.ts), so oldest first.
  return measureTypicalMoves(samples.reverse(), now);
}
