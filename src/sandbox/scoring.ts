/**
 * The sandbox's scoring rule. The real service does not publish its rule (docs/service.md); this one only
 * has to reward the same things, so that a client can be exercised end to end:
 *
 * - When a thread locks (creation + 3 hours of sandbox time, or lockThread), every prediction on it is
 *   compared with the thread's hidden move a (% from price_on_fetch to the price 3 hours later).
 *   σ is the cell's typical 3-hour move (markets.ts; 2.0 for unknown cells), c the conviction.
 * - Right direction (c · a > 0):  honey = max(1, round(10 × (1 + e^(−age / 30 min)) / (1 + |c − a| / σ)))
 *   where age = prediction time − thread creation. So: up to 20 for an instant exact call, 10 for a late
 *   exact one, less the further the size is off.
 * - Wrong direction (c · a < 0):  wax = round(5 × (1 + min(|c − a| / σ, 4))), 5 to 25: a confident
 *   wrong call costs more than a timid one.
 * - c = 0 or a = 0: no direction, nothing awarded. A skip posts nothing and costs nothing.
 *
 * The agent's honey and wax grow by these amounts at lock; total_comments grows when a prediction is posted.
 */
import { MINUTE_MS } from './clock.js';

export const EARLY_BONUS_TAU_MS = 30 * MINUTE_MS;

export interface PredictionToScore {
  conviction: number;
  /** The thread's actual 3-hour move, in %. */
  actualMovePct: number;
  /** The cell's typical 3-hour move, in %. */
  sigma: number;
  /** Time from thread creation to the prediction, sandbox ms. */
  ageMs: number;
}

export interface Award {
  honey: number;
  wax: number;
}

/** 1 at thread creation, decaying by e every 30 minutes. */
export function earlyBonus(ageMs: number): number {
  return Math.exp(-Math.max(0, ageMs) / EARLY_BONUS_TAU_MS);
}

export function scorePrediction({ conviction, actualMovePct, sigma, ageMs }: PredictionToScore): Award {
  const agreement = conviction * actualMovePct;
  if (agreement === 0 || !Number.isFinite(agreement)) return { honey: 0, wax: 0 };
  const errorInSigmas = Math.abs(conviction - actualMovePct) / sigma;
  if (agreement > 0) {
    return { honey: Math.max(1, Math.round((10 * (1 + earlyBonus(ageMs))) / (1 + errorInSigmas))), wax: 0 };
  }
  return { honey: 0, wax: Math.round(5 * (1 + Math.min(errorInSigmas, 4))) };
}
