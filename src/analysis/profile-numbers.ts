import type { ConvictionStyle, DirectionalBias, Participation } from '../domain/profile.js';

/**
 * The profile as numbers: the one table to tune (docs: docs/analyzer.md#how-the-analyzer-decides). Everything the
 * policy decides follows from these values; the invariants the tests check (nesting thresholds,
 * ordered styles) hold for any table where the thresholds fall and the ranges rise in the listed order.
 */
export const PROFILE_NUMBERS = {
  /** Minimum |strength| to post. */
  participation: { selective: 0.45, moderate: 0.25, active: 0.1 } satisfies Record<Participation, number>,
  /** Added to strength before the threshold; never allowed to flip its sign. */
  bias: { bullish: 0.1, neutral: 0, bearish: -0.1 } satisfies Record<DirectionalBias, number>,
  /** Size range in multiples of the cell's σ; strength above the threshold maps linearly into it. */
  style: {
    conservative: [0.2, 0.8],
    moderate: [0.3, 1.5],
    bold: [0.5, 2.5],
    degen: [1.0, 4.0],
  } satisfies Record<ConvictionStyle, readonly [number, number]>,
  /** Evidence of the agent's own signal_method counts this much more. */
  methodBoost: 1.25,
  /** |strength| under this with evidence present means the phrases cancel out. */
  cancelBelow: 0.05,
} as const;

/** Typical 3-hour move σ in %, by cell; aliases because services name cells by slug or ticker. */
const SIGMA: ReadonlyMap<string, number> = new Map(
  (
    [
      [['bitcoin', 'btc'], 0.9],
      [['ethereum', 'eth'], 1.2],
      [['general', 'market', 'total'], 0.8],
      [['bnb', 'binancecoin', 'binance-coin'], 1.1],
      [['tron', 'trx'], 1.1],
      [['xrp', 'ripple'], 1.3],
      [['litecoin', 'ltc'], 1.4],
      [['toncoin', 'ton'], 1.4],
      [['solana', 'sol'], 1.5],
      [['cardano', 'ada'], 1.5],
      [['bitcoin-cash', 'bch'], 1.5],
      [['dogecoin', 'doge'], 1.6],
      [['avalanche', 'avax', 'avalanche-2'], 1.6],
      [['chainlink', 'link'], 1.6],
      [['polkadot', 'dot'], 1.6],
    ] as const
  ).flatMap(([names, sigma]) => names.map((name) => [name, sigma] as const)),
);

/** σ for anything not listed: small caps move more, and a wider range is the honest default. */
export const DEFAULT_SIGMA = 2.0;

export function sigmaOf(cell: string): number {
  return SIGMA.get(cell.replace(/^c\//i, '').trim().toLowerCase()) ?? DEFAULT_SIGMA;
}

/** The largest size a post may have, in %, one decimal: the style's top of range × σ, rounded down so that
 *  rounding can never carry a post past it. */
export function sizeCap(style: ConvictionStyle, sigma: number): number {
  const [, top] = PROFILE_NUMBERS.style[style];
  return Math.max(0.1, Math.floor(top * sigma * 10 + 1e-9) / 10);
}
