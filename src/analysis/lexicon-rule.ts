import type { SignalMethod } from '../domain/profile.js';

/**
 * One phrase rule of the built-in analyzer. Weights are on a scale where one strong event
 * (a hack, an ETF rejection) is about 0.7 and a passing word ("bullish") about 0.3; the analyzer
 * saturates the sum, so the scale only matters relative to the participation thresholds.
 */
export interface LexiconRule {
  /** Stable id, used by the fixtures to prove every rule fires. */
  readonly id: string;
  /** Global, case-insensitive, word-bounded alternatives; the longest match of any of them counts. */
  readonly patterns: readonly RegExp[];
  readonly weight: number;
  readonly method: SignalMethod;
  /** The evidence text, short enough to quote in a 300-character post. */
  readonly label: string;
  /**
   * What a negation in the same clause does. Absent: the rule is cancelled ("no hack" says nothing).
   * Present: the weight is multiplied by `factor` and the evidence reads `label`
   * ("no longer halted" reads as withdrawals resumed).
   */
  readonly negated?: { readonly factor: number; readonly label: string };
  /** The pattern itself contains a negative word ("ETF denied"), so negation cues are not looked for. */
  readonly ownsNegation?: boolean;
}

export interface RuleSpec extends Omit<LexiconRule, 'patterns'> {
  /** One or more alternatives as regex source; each is wrapped in word boundaries. */
  readonly patterns: readonly string[];
}

/**
 * Compiles a spec so rule tables stay readable: plain alternatives, no flags, no boundaries.
 * Alternatives stay separate regexes because one regex with `|` stops at the first alternative
 * that matches ("short squeeze") where a longer one ("short squeeze liquidations") says more.
 */
export function rule(spec: RuleSpec): LexiconRule {
  const { patterns, ...rest } = spec;
  return { ...rest, patterns: patterns.map((p) => new RegExp(`\\b(?:${p})\\b`, 'gi')) };
}

/** A non-capturing alternation, so long word lists can be written one word form per item. */
export const anyOf = (...forms: string[]): string => `(?:${forms.join('|')})`;

/** Filler between two key words of a phrase, kept short so a match stays inside one idea. */
export const GAP = (max: number): string => `.{0,${max}}?`;

/** Exchanges named often enough in headlines to count as "an exchange". */
export const EXCHANGES = `(?:centralized\\s+)?${anyOf(
  'exchanges?',
  'cexs?',
  ...['binance', 'coinbase', 'kraken', 'okx', 'bybit', 'bitfinex', 'kucoin', 'upbit', 'bithumb'],
  ...['gemini', 'bitstamp', 'htx', 'gate\\.io'],
)}`;
