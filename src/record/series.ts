import type { Sample } from './samples.js';

// The price series of each cell, from the samples the runs recorded. A service may send a wrong price:
// one that jumps by more than half from every neighbour a few minutes away is left out, so that it never
// moves an outcome silently (the outcome names the samples it used).

/** Neighbours this close in time that disagree by more than MAX_JUMP make a sample suspect. */
export const JUMP_WINDOW_MS = 30 * 60_000;
/** A price more than 1.5× or less than 1/1.5 of its neighbour's minutes apart is not a market move. */
export const MAX_JUMP = 1.5;
/** Neighbours looked at on each side. */
const NEIGHBOURS = 2;

export interface PriceSeries {
  /** Each cell's trusted samples, oldest first. */
  cells: Map<string, Sample[]>;
  /** Every sample by its thread's id (the first one recorded), trusted or not. */
  byThread: Map<string, Sample>;
  /** Ids of the samples left out as absurd. */
  suspect: Set<string>;
  /** The newest sample's time: how far the series knows the world, by the threads' own clock. */
  newestMs: number;
}

/**
 * The series of these samples, given in the order they were recorded (oldest first): a thread read again
 * keeps the first price recorded for it as its p0, so a later read never moves an outcome.
 */
export function buildSeries(samples: Iterable<Sample>): PriceSeries {
  const byThread = new Map<string, Sample>();
  for (const sample of samples) if (!byThread.has(sample.threadId)) byThread.set(sample.threadId, sample);
  const raw = new Map<string, Sample[]>();
  let newestMs = Number.NEGATIVE_INFINITY;
  for (const sample of byThread.values()) {
    let list = raw.get(sample.cell);
    if (!list) {
      list = [];
      raw.set(sample.cell, list);
    }
    list.push(sample);
    if (sample.ms > newestMs) newestMs = sample.ms;
  }
  const cells = new Map<string, Sample[]>();
  const suspect = new Set<string>();
  for (const [cell, list] of raw) {
    list.sort((a, b) => a.ms - b.ms || (a.threadId < b.threadId ? -1 : 1));
    const kept = list.filter((sample, i) => {
      const absurd = isAbsurd(list, i);
      if (absurd) suspect.add(sample.threadId);
      return !absurd;
    });
    cells.set(cell, kept);
  }
  return { cells, byThread, suspect, newestMs };
}

/** Suspect when it has neighbours within the window and disagrees with every one of them by a jump. */
function isAbsurd(list: readonly Sample[], i: number): boolean {
  const sample = list[i];
  if (!sample) return false;
  let near = 0;
  for (let j = Math.max(0, i - NEIGHBOURS); j <= Math.min(list.length - 1, i + NEIGHBOURS); j++) {
    const other = list[j];
    if (j === i || !other || Math.abs(other.ms - sample.ms) > JUMP_WINDOW_MS) continue;
    near += 1;
    const ratio = sample.price / other.price;
    if (ratio <= MAX_JUMP && ratio >= 1 / MAX_JUMP) return false;
  }
  return near > 0;
}
