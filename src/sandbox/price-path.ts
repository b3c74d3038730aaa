// One price path per cell, so that the threads of a cell form a price series as a real feed's do: each
// thread's price_on_fetch is the path at its creation, and its outcome is the same path 3 hours on. The path
// is a pure function of (seed, cell, time), so every thread, whenever it is generated (a restart from
// --state, an export), sees the same prices.
//
// Built in two layers so that any instant costs little: a day-level walk from a fixed origin (log-price,
// pulled back gently towards the market's level so that years of it stay plausible), and within each day a
// Brownian bridge of 5-minute steps between the day's two ends, linear between the steps. Both layers use
// the cell's σ: a 3-hour move has a standard deviation of about σ.
import { HOUR_MS, MINUTE_MS } from './clock.js';
import { DEFAULT_SIGMA, marketOf } from './markets.js';
import { createRng, mixSeed } from './random.js';

const DAY_MS = 24 * HOUR_MS;
const STEP_MS = 5 * MINUTE_MS;
const STEPS_PER_DAY = DAY_MS / STEP_MS;
/** Where every walk starts; earlier instants read the origin's day. */
const ORIGIN_MS = Date.UTC(2000, 0, 1);
/** Share of its distance from the market's level that a day's walk gives back. */
const REVERSION_PER_DAY = 0.05;
/** Days whose fine steps are kept per cell: a feed reads the last few hours, again and again. */
const DAYS_KEPT = 16;

export interface PricePath {
  /** The price at this instant (unrounded), > 0. */
  at(ms: number): number;
}

/** The path of `cell` (a project_id or a cell name) for `seed`; cells outside the market list start at 1. */
export function pricePath(seed: number, cell: string): PricePath {
  const name = cell.replace(/^c\//, '').trim().toLowerCase();
  const key = `${seed}\n${name}`;
  let path = paths.get(key);
  if (!path) {
    const market = marketOf(name);
    path = createPath(mixSeed(seed ^ 0x2545f491, hashOf(name)), market?.sigma ?? DEFAULT_SIGMA, market?.price ?? 1);
    paths.set(key, path);
  }
  return path;
}

const paths = new Map<string, PricePath>();

function createPath(cellSeed: number, sigmaPct: number, level: number): PricePath {
  const stepSigma = sigmaPct / 100 / Math.sqrt((3 * HOUR_MS) / STEP_MS);
  const daySigma = stepSigma * Math.sqrt(STEPS_PER_DAY);
  // Log-price relative to the level at each day's start, grown on demand.
  const days: number[] = [0];
  const dayStart = (d: number): number => {
    for (let i = days.length; i <= d; i++) {
      const z = createRng(mixSeed(cellSeed, 2 * (i - 1))).gaussian();
      days.push((days[i - 1] ?? 0) * (1 - REVERSION_PER_DAY) + daySigma * z);
    }
    return days[d] ?? 0;
  };
  const fine = new Map<number, Float64Array>();
  const stepsOf = (d: number): Float64Array => {
    let steps = fine.get(d);
    if (steps) return steps;
    const rng = createRng(mixSeed(cellSeed, 2 * d + 1));
    const walk = new Float64Array(STEPS_PER_DAY + 1);
    for (let i = 1; i <= STEPS_PER_DAY; i++) walk[i] = (walk[i - 1] ?? 0) + stepSigma * rng.gaussian();
    const from = dayStart(d);
    const to = dayStart(d + 1);
    const drift = walk[STEPS_PER_DAY] ?? 0;
    steps = walk.map((w, i) => from + (i / STEPS_PER_DAY) * (to - from) + w - (i / STEPS_PER_DAY) * drift);
    if (fine.size >= DAYS_KEPT) fine.delete(fine.keys().next().value as number);
    fine.set(d, steps);
    return steps;
  };
  return {
    at(ms) {
      const since = Math.max(0, ms - ORIGIN_MS);
      const d = Math.floor(since / DAY_MS);
      const position = (since - d * DAY_MS) / STEP_MS;
      const i = Math.floor(position);
      const steps = stepsOf(d);
      const low = steps[i] ?? 0;
      const high = steps[i + 1] ?? low;
      return level * Math.exp(low + (position - i) * (high - low));
    },
  };
}

/** FNV-1a: a cell name as a number, the same on every machine. */
function hashOf(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}
