import type { SignalMethod } from '../domain/profile.js';
import { loudness } from './amounts.js';
import { LEXICON, type LexiconRule } from './lexicon.js';
import { isNegated } from './negation.js';

/** One lexicon phrase found in a text, after negation and amounts. */
export interface Reading {
  ruleId: string;
  method: SignalMethod;
  /** Evidence text: the rule's label, or its negated label. */
  label: string;
  /** Signed; 0 when a negation cancelled the phrase. */
  weight: number;
  /** The words that matched, as written. */
  matched: string;
  negated: boolean;
  multiplier: number;
  amount?: string;
}

// A long text is not more bullish for being long; the cap bounds the work on hostile input.
const MAX_TEXT = 20_000;

// Clause breaks: sentence ends, line breaks and bullets, dashes (-, en, em), colons, ", " (not "10,000")
// and contrast words, because negation and amounts belong to one idea: "not bullish, but whales are buying".
const CLAUSE_BREAK =
  /,?\s+(?:but|however|although|though|while|whereas|despite|even as)\s+|(?<=[.!?;:])\s+|[\n\r|\u2022]+|\s+[-\u2013\u2014]+\s+|,\s+/i;

export function splitClauses(text: string): string[] {
  return text
    .slice(0, MAX_TEXT)
    .replace(/[\u2019\u2018`]/g, "'") // curly and back quotes: "don’t" reads as "don't"
    .split(CLAUSE_BREAK)
    .map((c) => c.trim())
    .filter((c) => c !== '');
}

interface Hit {
  rule: LexiconRule;
  order: number;
  start: number;
  end: number;
}

/** Every lexicon phrase in the text, in reading order. */
export function readText(text: string): Reading[] {
  return splitClauses(text).flatMap(readClause);
}

function readClause(clause: string): Reading[] {
  const hits = findHits(clause);
  if (hits.length === 0) return [];
  const { multiplier, amount } = loudness(clause);
  return hits.map(({ rule, start, end }) => {
    const negated = !rule.ownsNegation && isNegated(clause, start, end);
    const factor = negated ? (rule.negated?.factor ?? 0) : 1;
    const label = negated ? (rule.negated?.label ?? rule.label) : rule.label;
    const reading: Reading = {
      ruleId: rule.id,
      method: rule.method,
      label,
      weight: round(rule.weight * factor * multiplier),
      matched: clause.slice(start, end),
      negated,
      multiplier: round(multiplier),
    };
    return amount === undefined ? reading : { ...reading, amount };
  });
}

/**
 * The longest phrase wins where matches overlap, so "short squeeze" is not also "liquidations"
 * and "exchange withdrawals halted" is not also "exchange withdrawals".
 */
function findHits(clause: string): Hit[] {
  const all: Hit[] = [];
  LEXICON.forEach((rule, order) => {
    for (const pattern of rule.patterns) {
      // Most clauses match no pattern: test() allocates nothing, while matchAll clones the pattern and
      // makes an iterator (500 threads made ~300,000 of each). matchAll starts at lastIndex, hence the resets.
      pattern.lastIndex = 0;
      const found = pattern.test(clause);
      pattern.lastIndex = 0;
      if (!found) continue;
      for (const m of clause.matchAll(pattern)) {
        if (m[0].length > 0) all.push({ rule, order, start: m.index, end: m.index + m[0].length });
      }
    }
  });
  all.sort((a, b) => b.end - b.start - (a.end - a.start) || a.start - b.start || a.order - b.order);
  const kept: Hit[] = [];
  for (const hit of all) {
    if (kept.every((k) => hit.end <= k.start || hit.start >= k.end)) kept.push(hit);
  }
  return kept.sort((a, b) => a.start - b.start);
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}
