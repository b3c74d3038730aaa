import type { SignalMethod } from '../domain/profile.js';
import { needsOf, type Needs } from './pattern-needs.js';
import { compilePattern } from './compile-pattern.js';

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
  /** For each pattern, text that any match of it contains: a clause without it is not searched. */
  readonly needs: readonly Needs[];
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
  /**
   * What a lack or a need in the same clause does ("still awaiting approval", "lacking clarity").
   * Absent: the rule is cancelled, because a thing not yet there is not its opposite either
   * ("needs to break $70K" is no failed breakout). Present: as for `negated`.
   */
  readonly lacking?: { readonly factor: number; readonly label: string };
  /** The pattern itself contains a negative word ("ETF denied"), so negation cues are not looked for. */
  readonly ownsNegation?: boolean;
  /**
   * The phrase is a view someone holds ("bullish", "going short"), not an event: held in the past
   * ("was bullish last year") it says nothing about now.
   */
  readonly stance?: boolean;
  /** A stance that counts only in the author's own voice ("don't sell", "I'm not selling"). */
  readonly authorOnly?: boolean;
  /**
   * A word of the debate ("FUD", "hype"): in a post written to or by someone ("I", "you") it names the
   * other side's argument, not an event, so it counts only in text told in the third person.
   */
  readonly reportOnly?: boolean;
  /**
   * Why the phrase never carries a post alone, even in the author's own voice ("FUD" is waved away as
   * often as reported; "still holding" is said through losses as often as through gains): it can only
   * agree with another cue.
   */
  readonly weakAlone?: string;
  /**
   * Why the phrase cannot carry a post alone when its clause names no coin by name: a funding round
   * of "a crypto startup" is a firm's news, one of "a Solana developer" a coin's. Beside another
   * independent cue that agrees, it stands (anchors.ts).
   */
  readonly weakWithoutCoin?: string;
  /** A match right after text this matches is about that text, not about the price: not read. */
  readonly notAfter?: RegExp;
  /**
   * Rules with the same cue say the same thing in other words ("slides", "plunges", "new low": a price
   * move), so together they are one cue, not independent evidence. Absent: the rule is its own cue.
   */
  readonly cue?: string;
}

export interface RuleSpec extends Omit<LexiconRule, 'patterns' | 'needs' | 'notAfter'> {
  /** One or more alternatives as regex source; each must start and end at a word's edge. */
  readonly patterns: readonly string[];
  /** Regex source, matched against the clause up to the match's start. */
  readonly notAfter?: string;
}

/**
 * Compiles a spec so rule tables stay readable: plain alternatives, no flags, no boundaries.
 * Alternatives stay separate regexes because one regex with `|` stops at the first alternative
 * that matches ("short squeeze") where a longer one ("short squeeze liquidations") says more.
 */
export function rule(spec: RuleSpec): LexiconRule {
  const { patterns, notAfter, ...rest } = spec;
  return {
    ...rest,
    ...compile(patterns),
    ...(notAfter === undefined ? {} : { notAfter: compilePattern(notAfter, 'i') }),
  };
}

export function compile(patterns: readonly string[]): { patterns: RegExp[]; needs: Needs[] } {
  return {
    // Not \b: a phrase may start or end with a sign ("+8%", "down 5%"), where \b would want a letter
    // next to it. For a phrase that starts and ends with a letter, the two mean the same.
    patterns: patterns.map((p) => compilePattern(`(?<!\\w)(?:${p})(?!\\w)`, 'gi')),
    needs: patterns.map(needsOf),
  };
}

/** A non-capturing alternation, so long word lists can be written one word form per item. */
export const anyOf = (...forms: string[]): string => `(?:${forms.join('|')})`;

/**
 * Filler between two key words of a phrase, kept short so a match stays inside one idea. It starts at
 * a word's end, so that the key word before it is whole ("issue" is not the start of "issuer").
 */
export const GAP = (max: number): string => `\\b.{0,${max}}?`;

/** A service stopped: trading, deposits or withdrawals halted, paused, suspended, frozen or disabled. */
export const PAUSED = [
  'halt(?:s|ed|ing)?',
  'paus(?:e|es|ed|ing)',
  'suspend(?:s|ed|ing)?',
  'freez(?:e|es|ing)',
  'froze',
  'frozen',
  'disabl(?:e|es|ed|ing)',
];

/** Exchanges named often enough in headlines to count as "an exchange". */
export const EXCHANGES = `(?:centralized\\s+)?${anyOf(
  'exchanges?',
  'cexs?',
  ...['binance', 'coinbase', 'kraken', 'okx', 'bybit', 'bitfinex', 'kucoin', 'upbit', 'bithumb'],
  ...['gemini', 'bitstamp', 'htx', 'gate\\.io'],
)}`;
