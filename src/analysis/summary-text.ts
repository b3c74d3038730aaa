import { LIMITS } from '../domain/profile.js';
import { cleanBlock, cleanInline, codePoints } from './text-clean.js';
import { trimEndOf } from '../domain/trim-end.js';

const MAX_REASONS = 3;
const ELLIPSIS = '…';
// What a cut must not end on: spaces, separators, dashes (en, em) and opening brackets or quotes. Written
// as escapes: the bundle must stay ASCII (scripts/build.mjs says why).
const TRAILING_PUNCTUATION = /[\s,;:\-\u2013\u2014([{'"\u201c\u2018]/u;

/** 20-300 characters both as JavaScript counts them (UTF-16 units) and as code points. */
export function isValidText(text: string): boolean {
  // Code points never outnumber UTF-16 units, so each bound needs only its stricter measure.
  return text.length <= LIMITS.textMax && codePoints(text) >= LIMITS.textMin;
}

/**
 * Makes any text (the user's, an external analyzer's) postable, or says it cannot: cleans it, and if
 * it is too long cuts it at the last space that fits, so no word or surrogate pair is split.
 */
export function fitText(text: string): string | undefined {
  const clean = cleanBlock(text);
  if (isValidText(clean)) return clean;
  if (clean.length <= LIMITS.textMax) return undefined;
  const cut = cutAtWord(clean, LIMITS.textMax);
  return cut !== undefined && isValidText(cut) ? cut : undefined;
}

export interface SummaryInput {
  cell: string;
  /** Already final: non-zero, one decimal. */
  conviction: number;
  /** Why, strongest first; as many as fit (up to three) are quoted. */
  reasons: readonly string[];
}

/**
 * The post's text: direction, cell, reasons, size. Reasons are taken whole or not at all, and the
 * cell is dropped if it alone would overflow, so the result always fits without cutting anything.
 */
export function composeSummary(input: SummaryInput): string {
  const direction = input.conviction > 0 ? 'Bullish' : 'Bearish';
  const size = `${input.conviction > 0 ? '+' : '-'}${Math.abs(input.conviction).toFixed(1)}%`;
  const tail = ` Expect ${size} in 3h.`;
  const cell = cleanInline(input.cell);
  const reasons = uniqueReasons(input.reasons);
  const heads = cell ? [`${direction} on c/${cell}`, direction] : [direction];

  for (const head of heads) {
    if (!isValidText(build(head, [], tail))) continue;
    const kept: string[] = [];
    for (const reason of reasons) {
      if (kept.length === MAX_REASONS) break;
      if (build(head, [...kept, reason], tail).length <= LIMITS.textMax) kept.push(reason);
    }
    // One long reason (an analyzer's sentence) is better cut at a word than left out: the why matters.
    const first = reasons[0];
    if (kept.length === 0 && first !== undefined) {
      const cut = cutAtWord(first, LIMITS.textMax - build(head, [''], tail).length);
      if (cut) kept.push(cut);
    }
    return build(head, kept, tail);
  }
  // Unreachable while the bare head is 28 characters, kept so a change of wording cannot post junk.
  return `${direction}. Expect ${size} in 3h.`;
}

/** The text cut at the last space that leaves room for the ellipsis in `budget`, trailing punctuation dropped. */
function cutAtWord(text: string, budget: number): string | undefined {
  for (let i = budget - ELLIPSIS.length; i > 0; i -= 1) {
    if (!/\s/.test(text.charAt(i))) continue;
    const kept = trimEndOf(text.slice(0, i), TRAILING_PUNCTUATION);
    return kept ? kept + ELLIPSIS : undefined;
  }
  return undefined;
}

function build(head: string, reasons: readonly string[], tail: string): string {
  return reasons.length > 0 ? `${head}: ${reasons.join(', ')}.${tail}` : `${head}.${tail}`;
}

function uniqueReasons(reasons: readonly string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const raw of reasons) {
    const reason = trimEndOf(cleanInline(raw), /[\s.!?,;:]/u);
    const key = reason.toLowerCase();
    if (reason === '' || seen.has(key)) continue;
    seen.add(key);
    out.push(reason);
  }
  return out;
}
