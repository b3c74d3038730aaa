import type { SignalMethod } from '../domain/profile.js';
import { loudness } from './amounts.js';
import { findHits } from './find-phrases.js';
import type { MaskKind } from './lexicon-masks.js';
import { negationOf, type NegationKind } from './negation.js';
import { pastStanceOf, quoteUseOf, recallOf } from './reading-cues.js';

/** One lexicon phrase found in a text, after negation, context and amounts. */
export interface Reading {
  ruleId: string;
  /** Absent for a mask (an idiom, a background mention), which has no method and counts nothing. */
  method?: SignalMethod;
  /** Evidence text: the rule's label, or its negated label. */
  label: string;
  /** Signed; 0 when the phrase counts nothing here (negated, recalled, a past stance, an idiom…). */
  weight: number;
  /** The words that matched, as written. */
  matched: string;
  negated: boolean;
  multiplier: number;
  amount?: string;
  /** What changed the rule's weight, each naming the cue that did, for the trace. */
  notes: string[];
  /** Why the phrase counts nothing, for the trace; absent when it counts. */
  ignored?: string;
}

/** What is known about the text besides its words. */
export interface TextContext {
  /** The year the text was written: earlier years in it are the past. */
  year?: number;
}

/** A clause, and the word that concedes it when the sentence turns on a contrast. */
export interface Clause {
  text: string;
  /** `before "but"`, `after "despite"`: the clause is what the sentence grants, not what it says. */
  conceded?: string;
}

// A long text is not more bullish for being long; the cap bounds the work on hostile input.
const MAX_TEXT = 20_000;

/** "X but Y" weighs Y: what the sentence concedes counts this much. */
export const CONCEDED = 0.25;

// Clause breaks: sentence ends, line breaks and bullets, dashes (-, en, em), colons, ", " (not "10,000")
// and contrast words, because negation and amounts belong to one idea: "not bullish, but whales are buying".
// The break is captured: a contrast word also says which side of it the sentence means. A full stop
// after an abbreviation or an initial ("Mt. Gox", "U.S. regulators") ends no sentence.
const CLAUSE_BREAK =
  /(,?\s+(?:but(?!\s+also\b)|however|although|though|even though|while|whereas|despite|in spite of|even as)\s+|,\s+yet\s+|(?<=[.!?;:])(?<!\b(?:mt|inc|corp|co|ltd|vs|st|dr|mr|mrs|ms|jr|sr|approx|est|[a-z])\.)\s+|[\n\r|\u2022]+|\s+[-\u2013\u2014]+\s+|,\s+)/i;
const SENTENCE_BREAK = /^(?:\s+|[\n\r|\u2022]+)$/;
const BUT = /^,?\s+(but|however|yet)\s+$/i;
const DESPITE = /^,?\s+(although|though|even though|despite|in spite of|even as)\s+$/i;
// A sentence that opens with a contrast concedes the one before it; one that opens with a concession
// concedes its own first clause.
const OPENS_BUT = /^(but|however|yet|still|nonetheless|nevertheless)\b,?\s*/i;
const OPENS_DESPITE = /^(despite|although|though|even though|in spite of|while|whilst)\b/i;

export function readClauses(text: string): Clause[] {
  const parts = text
    .slice(0, MAX_TEXT)
    .replace(/[\u2019\u2018`]/g, "'") // curly and back quotes: "don’t" reads as "don't"
    .split(CLAUSE_BREAK);
  const clauses: Clause[] = [];
  let sentenceStart = 0;
  let previousSentence = 0;
  for (let i = 0; i < parts.length; i += 2) {
    const separator = i === 0 ? '' : (parts[i - 1] ?? '');
    let body = (parts[i] ?? '').trim();
    if (body === '') continue;
    const newSentence = i === 0 || SENTENCE_BREAK.test(separator) || /[\n\r|\u2022]/.test(separator);
    if (newSentence) {
      previousSentence = sentenceStart;
      sentenceStart = clauses.length;
    }
    const but = BUT.exec(separator);
    if (but) concede(clauses, sentenceStart, clauses.length, `before "${(but[1] ?? '').toLowerCase()}"`);
    const opens = newSentence ? OPENS_BUT.exec(body) : null;
    if (opens && clauses.length > 0) {
      concede(clauses, previousSentence, sentenceStart, `before "${(opens[1] ?? '').toLowerCase()}"`);
      body = body.slice(opens[0].length).trim();
      if (body === '') continue;
    }
    const word = DESPITE.exec(separator)?.[1] ?? (newSentence ? OPENS_DESPITE.exec(body)?.[1] : undefined);
    clauses.push(word ? { text: body, conceded: `after "${word.toLowerCase()}"` } : { text: body });
  }
  return clauses;
}

function concede(clauses: Clause[], from: number, to: number, why: string): void {
  for (const clause of clauses.slice(from, to)) {
    if (clause.conceded === undefined) clause.conceded = why;
  }
}

export function splitClauses(text: string): string[] {
  return readClauses(text).map((c) => c.text);
}

/** Every lexicon phrase in the text, in reading order. */
export function readText(text: string, context: TextContext = {}): Reading[] {
  return readClauses(text).flatMap((clause) => readClause(clause, text, context));
}

const IGNORED_WHEN: Record<NegationKind, (cue: string) => string> = {
  negated: () => 'is negated',
  lacking: (cue) => `is lacking ("${cue}")`,
  sought: (cue) => `is only sought ("${cue}")`,
};

const MASK_SAYS: Record<MaskKind, string> = {
  idiom: 'is an idiom',
  background: 'names a past event as background',
  advice: 'is advice, not news',
};

function readClause({ text: clause, conceded }: Clause, whole: string, { year }: TextContext): Reading[] {
  const hits = findHits(clause);
  if (hits.length === 0) return [];
  const { multiplier, amount } = loudness(clause);
  return hits.map(({ rule, start, end }) => {
    const matched = clause.slice(start, end);
    const base = { ruleId: rule.id, matched, negated: false, multiplier: 1, notes: [] as string[] };
    if (!('weight' in rule)) return { ...base, label: '', weight: 0, ignored: MASK_SAYS[rule.kind] };
    const ignore = (why: string): Reading => ({
      ...base,
      method: rule.method,
      label: rule.label,
      weight: 0,
      ignored: why,
    });

    const past = rule.stance ? pastStanceOf(clause, start, end, whole, year) : undefined;
    if (past) return ignore(`is a stance held in the past ("${past}")`);
    const recalled = recallOf(clause, start, end, year);
    if (recalled) return ignore(`recalls a past event ("${recalled}")`);
    const quoted = quoteUseOf(clause, start, end);
    if (quoted?.kind === 'mention') return ignore(`is quoted as a word, not used ("${quoted.cue}")`);

    const notes: string[] = [];
    let turn: { factor: number; label: string } | undefined;
    let negated = false;
    if (quoted) {
      negated = true;
      turn = rule.negated;
      if (!turn) return ignore(`is quoted to reject it ("${quoted.cue}")`);
      notes.push(`quoted to reject it: "${quoted.cue}"`);
    } else if (!rule.ownsNegation) {
      const negation = negationOf(clause, start, end);
      if (negation) {
        negated = true;
        turn = negation.kind === 'negated' ? rule.negated : negation.kind === 'lacking' ? rule.lacking : undefined;
        if (!turn) return { ...ignore(IGNORED_WHEN[negation.kind](negation.cue)), negated };
        notes.push(`${negation.kind}: "${negation.cue}"`);
      }
    }
    const factor = (turn?.factor ?? 1) * (conceded ? CONCEDED : 1);
    if (conceded) notes.push(`×${CONCEDED} conceded ${conceded}`);
    const reading: Reading = {
      ruleId: rule.id,
      method: rule.method,
      label: turn?.label ?? rule.label,
      weight: round(rule.weight * factor * multiplier),
      matched,
      negated,
      multiplier: round(multiplier),
      notes,
    };
    return amount === undefined ? reading : { ...reading, amount };
  });
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}
