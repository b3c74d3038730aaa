// The interval of a hit rate. Wilson's score interval, not p ± 1.96·se: that one is honest only for many
// trials away from 0 and 1, and a record starts with a handful of posts (5 right of 5 is not "100% ± 0").
// https://en.wikipedia.org/wiki/Binomial_proportion_confidence_interval#Wilson_score_interval

const Z95 = 1.959964;

/** 95% Wilson score interval of a proportion; null without trials. */
export function wilson(successes: number, trials: number): { low: number; high: number } | null {
  if (trials <= 0) return null;
  const p = successes / trials;
  const z2 = Z95 * Z95;
  const denominator = 1 + z2 / trials;
  const centre = (p + z2 / (2 * trials)) / denominator;
  const half = (Z95 * Math.sqrt((p * (1 - p)) / trials + z2 / (4 * trials * trials))) / denominator;
  return { low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}
