import type { Sample } from './samples.js';

// The price series of each cell, from the samples the runs recorded. A service may send a wrong price, and
// wrong prices may agree with each other: each sample is checked against the cell's own level (the last
// price kept, when recent), or with no recent level against the median of the samples around it, so that
// neither two agreeing bad samples nor bad ones outnumbering a good one can move an outcome. Left-out
// samples are named in the outcomes they would have touched.

/** A price more than 1.5× or less than 1/1.5 of the cell's level is not a market move. */
export const MAX_JUMP = 1.5;
/** The last price kept is the cell's level for this long; after it, the samples around one decide. */
export const LEVEL_MS = 6 * 60 * 60_000;
/** With no recent level, the median of up to this many samples on each side, this close in time. */
const AROUND = 3;
export const AROUND_MS = 30 * 60_000;

export interface PriceSeries {
  /** Each cell's trusted samples, oldest first. */
  cells: Map<string, Sample[]>;
  /** Each cell's samples left out as absurd, oldest first. */
  dropped: Map<string, Sample[]>;
  /** Every sample by its thread's id (the first one recorded), trusted or not. */
  byThread: Map<string, Sample>;
  /** Ids of the samples left out as absurd. */
  suspect: Set<string>;
  /**
   * How far the series knows the world, by the threads' own clock: the newest sample's time, or how far
   * the walk has read when that is earlier (samples beyond it are in `byThread` only).
   */
  newestMs: number;
}

/**
 * The series of these samples, given in the order they were recorded (oldest first): a thread read again
 * keeps the first price recorded for it as its p0, so a later read never moves an outcome. With `walkedMs`
 * (samples.ts, WalkedSamples) a sample dated after it is a thread's own price only: the prices between
 * the walk and it are not read yet, and an outcome must not be taken from around them.
 */
export function buildSeries(samples: Iterable<Sample>, walkedMs = Number.POSITIVE_INFINITY): PriceSeries {
  const byThread = new Map<string, Sample>();
  for (const sample of samples) if (!byThread.has(sample.threadId)) byThread.set(sample.threadId, sample);
  const raw = new Map<string, Sample[]>();
  let newestMs = Number.NEGATIVE_INFINITY;
  for (const sample of byThread.values()) {
    if (sample.ms > walkedMs) continue;
    let list = raw.get(sample.cell);
    if (!list) {
      list = [];
      raw.set(sample.cell, list);
    }
    list.push(sample);
    if (sample.ms > newestMs) newestMs = sample.ms;
  }
  const cells = new Map<string, Sample[]>();
  const dropped = new Map<string, Sample[]>();
  const suspect = new Set<string>();
  for (const [cell, list] of raw) {
    list.sort((a, b) => a.ms - b.ms || (a.threadId < b.threadId ? -1 : 1));
    const kept: Sample[] = [];
    const left: Sample[] = [];
    for (let i = 0; i < list.length; i++) {
      const sample = list[i] as Sample;
      const level = kept[kept.length - 1];
      const reference = level && sample.ms - level.ms <= LEVEL_MS ? level.price : medianAround(list, i, sample.ms);
      if (isPlausible(sample.price, reference)) kept.push(sample);
      else {
        left.push(sample);
        suspect.add(sample.threadId);
      }
    }
    cells.set(cell, kept);
    if (left.length) dropped.set(cell, left);
  }
  return { cells, dropped, byThread, suspect, newestMs };
}

/** Within MAX_JUMP of the reference either way. */
export function isPlausible(price: number, reference: number): boolean {
  const ratio = price / reference;
  return ratio <= MAX_JUMP && ratio >= 1 / MAX_JUMP;
}

/** The median price of the sample and up to AROUND samples on each side within AROUND_MS of it. */
function medianAround(list: readonly Sample[], i: number, ms: number): number {
  const prices: number[] = [];
  for (let j = Math.max(0, i - AROUND); j <= Math.min(list.length - 1, i + AROUND); j++) {
    const other = list[j];
    if (other && Math.abs(other.ms - ms) <= AROUND_MS) prices.push(other.price);
  }
  prices.sort((a, b) => a - b);
  const middle = prices.length >>> 1;
  return prices.length % 2
    ? (prices[middle] as number)
    : Math.sqrt((prices[middle - 1] as number) * (prices[middle] as number));
}
