import { compilePattern } from './compile-pattern.js';
// Amounts make a phrase louder, modestly and boundedly: "$500M of ETF inflows" is stronger than
// "ETF inflows", but a $50B number must not outvote three other phrases. Small sums (price levels
// such as "$70K") do not count. Coin amounts are valued at rough orders of magnitude only:
// this is a loudness scale, not a price feed.
const NOTICEABLE_USD = 1e7;
const PER_DECADE = 0.1;
const MAX_MULTIPLIER = 1.5;

const SCALE: Record<string, number> = {
  k: 1e3,
  thousand: 1e3,
  m: 1e6,
  mn: 1e6,
  mm: 1e6,
  million: 1e6,
  b: 1e9,
  bn: 1e9,
  billion: 1e9,
  t: 1e12,
  tn: 1e12,
  trillion: 1e12,
};
const COIN_USD: Record<string, number> = { btc: 5e4, bitcoin: 5e4, eth: 2.5e3, ether: 2.5e3, ethereum: 2.5e3 };

const NUMBER = '(\\d{1,3}(?:,\\d{3})+|\\d+(?:\\.\\d+)?)';
const UNIT = '(k|thousand|mn|mm|m|million|bn|b|billion|tn|t|trillion)?';
const USD_AMOUNT = compilePattern(`(?:\\$|\\busd\\s?)\\s?${NUMBER}\\s?${UNIT}\\b`, 'gi');
const DOLLARS = compilePattern(`\\b${NUMBER}\\s?${UNIT}\\s+(?:dollars|usd)\\b`, 'gi');
const COINS = compilePattern(`\\b${NUMBER}\\s?${UNIT}\\s+(btc|bitcoin|eth|ether|ethereum)\\b`, 'gi');

export interface Loudness {
  multiplier: number;
  /** The amount as written, for the trace; absent when nothing counted. */
  amount?: string;
}

/** The largest amount in a clause, as a weight multiplier in [1, 1.5]. */
export function loudness(clause: string): Loudness {
  let best: Loudness = { multiplier: 1 };
  const consider = (written: string, usd: number): void => {
    const multiplier = Math.min(MAX_MULTIPLIER, 1 + PER_DECADE * Math.log10(usd / NOTICEABLE_USD));
    if (multiplier > best.multiplier) best = { multiplier, amount: written.trim() };
  };
  for (const m of clause.matchAll(USD_AMOUNT)) consider(m[0], amountOf(m[1], m[2]));
  for (const m of clause.matchAll(DOLLARS)) consider(m[0], amountOf(m[1], m[2]));
  for (const m of clause.matchAll(COINS)) {
    consider(m[0], amountOf(m[1], m[2]) * (COIN_USD[(m[3] ?? '').toLowerCase()] ?? 0));
  }
  return best;
}

function amountOf(digits: string | undefined, unit: string | undefined): number {
  const n = Number((digits ?? '').replace(/,/g, ''));
  const scale = unit ? (SCALE[unit.toLowerCase()] ?? 1) : 1;
  return Number.isFinite(n) ? n * scale : 0;
}
