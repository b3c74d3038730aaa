// The hidden 3-hour future of a thread. A feed thread's is its cell's price path (price-path.ts) over the
// 3 hours after it: the same path later threads of the cell take their prices from, so what an agent
// measures from the feed and what the sandbox scores agree. Threads a test prices by hand get a path of
// their own (simulateOutcome) or a straight one (fixedOutcome).
import { HOUR_MS } from './clock.js';
import { roundPrice } from './markets.js';
import type { PricePath } from './price-path.js';
import type { Outcome } from './records.js';
import type { Rng } from './random.js';

export const LOCK_AFTER_MS = 3 * HOUR_MS;
const STEPS = 12;
/** Drift of a full-strength signal, in multiples of σ. */
const DRIFT_PER_STRENGTH = 0.7;

/** The cell's path from the thread's creation to its lock, every 15 minutes; `price` is the path's, rounded. */
export function outcomeOnPath(
  path: PricePath,
  timestampMs: number,
  price: number,
  direction: -1 | 0 | 1,
  strength: number,
): Outcome {
  const points = Array.from({ length: STEPS + 1 }, (_, step) =>
    step === 0 ? price : roundPrice(path.at(timestampMs + (step * LOCK_AFTER_MS) / STEPS)),
  );
  return finish(price, points, direction, strength);
}

/** A path of its own for a thread priced by hand: its drift follows the text's direction, loosely. */
export function simulateOutcome(
  rng: Rng,
  price: number,
  sigma: number,
  direction: -1 | 0 | 1,
  strength: number,
): Outcome {
  const driftPerStep = (direction * strength * DRIFT_PER_STRENGTH * sigma) / STEPS;
  const noisePerStep = sigma / Math.sqrt(STEPS);
  const path = [price];
  let cumulativePct = 0;
  for (let step = 1; step <= STEPS; step++) {
    cumulativePct += driftPerStep + noisePerStep * rng.gaussian();
    path.push(roundPrice(price * (1 + cumulativePct / 100)));
  }
  return finish(price, path, direction, strength);
}

/** An outcome chosen by a test: a straight path to the given move. */
export function fixedOutcome(price: number, movePct: number): Outcome {
  const path = Array.from({ length: STEPS + 1 }, (_, step) => roundPrice(price * (1 + (movePct * step) / STEPS / 100)));
  const direction = movePct > 0 ? 1 : movePct < 0 ? -1 : 0;
  return { direction, strength: 1, movePct, path, priceOnEval: roundPrice(price * (1 + movePct / 100)) };
}

function finish(price: number, path: number[], direction: -1 | 0 | 1, strength: number): Outcome {
  const priceOnEval = path[path.length - 1] ?? price;
  const movePct = Math.round((priceOnEval / price - 1) * 100 * 1000) / 1000;
  return { direction, strength, movePct, path, priceOnEval };
}
