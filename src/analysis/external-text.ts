import { composeSummary } from './summary-text.js';
import { cleanInline, signed } from './text-clean.js';
import type { Trace } from './types.js';

// An external analyser's words become the "why" of a post, never its head or tail: the direction and
// the size are written from the conviction actually posted (analysis.md). A model's "Bearish … Expect
// -2.0%" over +2.0, or its "+12%" over a clamped +0.7, would tell readers what the agent did not predict;
// and since thread texts are written by strangers, a model's text may carry what a thread told it to say.

/** A stated size: "+12%", "-3.5 %", "12 percent", "4 pct" (after NFKC, so "１２％" too). */
const SIZE = /\d\s*(?:[.,]\d+)?\s*(?:%|percent\b|per\s?cent\b|pct\b)/i;
const DIRECTION = { up: /\bbullish\b/i, down: /\bbearish\b/i };
/** "not bullish" says no more than "bearish" does, and must not read as the opposite direction. */
const NEGATED_DIRECTION = /\b(?:not|never|no longer|hardly)\s+(?:so\s+|very\s+|too\s+)?(?:bullish|bearish)\b/gi;
const LINK = /\bhttps?:\/\/|\bwww\.|\b[a-z0-9-]+\.(?:com|io|org|net|xyz|gg|co)\b/i;

export type TextVerdict = { text: string } | { contradiction: string };

/**
 * The post's text around the analyser's reasons. A text that names only the opposite direction makes the
 * decision incoherent: it is not posted.
 */
export function externalText(given: string, cell: string, conviction: number, trace: Trace): TextVerdict {
  const clean = cleanInline(given);
  const said = directionsIn(clean);
  if (said.opposite(conviction) && !said.own(conviction)) {
    return { contradiction: `the analyser's text says ${conviction > 0 ? 'bearish' : 'bullish'} but its conviction is ${signed(conviction, 1)}` };
  }
  const reasons = reasonsOf(clean, conviction);
  const text = composeSummary({ cell, conviction, reasons });
  const dropped = reasons.join(' ') !== clean.replace(/^(?:bullish|bearish)(?:\s+on\s+\S+?)?(?:\s*[:,—–-]\s*|\s+because\s+|\s+as\s+)/i, '');
  trace.push(
    `policy: the post's text is written from the conviction posted (${signed(conviction, 1)}%) around the analyser's reasons` +
      (dropped ? '; its sentences stating a size, a direction or a link were left out' : ''),
  );
  return { text };
}

/** Sentences that give reasons for this conviction; no "Bullish on c/x:" head. */
export function reasonsOf(text: string, conviction: number): string[] {
  return text
    .split(/(?<=[.!?;])\s+/)
    .map((sentence) => sentence.replace(/^(?:bullish|bearish)(?:\s+on\s+\S+?)?(?:\s*[:,—–-]\s*|\s+because\s+|\s+as\s+)/i, '').trim())
    .filter((sentence) => sentence !== '' && isPlainReason(sentence, conviction));
}

/** A reason says why: no size (the tail says it), no opposite direction, no link nobody asked for. */
export function isPlainReason(reason: string, conviction: number): boolean {
  const probe = reason.normalize('NFKC');
  return !SIZE.test(probe) && !LINK.test(probe) && !directionsIn(probe).opposite(conviction);
}

function directionsIn(text: string) {
  const probe = text.normalize('NFKC').replace(NEGATED_DIRECTION, '');
  const up = DIRECTION.up.test(probe);
  const down = DIRECTION.down.test(probe);
  return {
    own: (conviction: number) => (conviction > 0 ? up : down),
    opposite: (conviction: number) => (conviction > 0 ? down : up),
  };
}
