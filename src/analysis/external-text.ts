import { composeSummary } from './summary-text.js';
import { cleanInline, probeOf, signed } from './text-clean.js';
import type { Trace } from './types.js';

// An external analyzer's words become the "why" of a post, never its head or tail: the direction and
// the size are written from the conviction actually posted (docs/analyzer.md#how-the-analyzer-decides). A model's
// "Bearish … Expect -2.0%" over +2.0, or its "+12%" over a clamped +0.7, would tell readers what the agent
// did not predict; and since thread texts are written by strangers, a model's text may carry what a thread told it to say.

/**
 * Anything that may state a size: a percent in any script or word ("12%", "%12", "١٢٪", "twelve per
 * cent", "1200 bps", "3 percentage points"), or an explicitly signed number ("expect +12.0 in 3h").
 */
const SIZE = /[%٪‰]|\bper\s?cent|\bpercent|\bpct\b|\bbps\b|\bbasis\s+points?\b|(?:^|[\s(])[+\-−]\s?\p{Nd}/iu;
const BULL = /\bbull(?:ish(?:ness)?|s)?\b/iu;
const BEAR = /\bbear(?:ish(?:ness)?|s)?\b/iu;
/** "not bullish" says what "bearish" says, and the other way round. */
const NOT_BULL = /\b(?:not|never|no\s+longer|hardly)\s+(?:so\s+|very\s+|too\s+)?bull(?:ish)?\b/giu;
const NOT_BEAR = /\b(?:not|never|no\s+longer|hardly)\s+(?:so\s+|very\s+|too\s+)?bear(?:ish)?\b/giu;
/** The head an analyzer may have written itself ("Bullish on c/x:", "Bearish because …"): ours replaces it. */
const OWN_HEAD = /^(?:bullish|bearish)(?:\s+on\s+\S+?)?(?:\s*[:,\u2014\u2013-]\s*|\s+because\s+|\s+as\s+)/i;
/** A link by its shape (a dot and at least two letters after it), whatever the domain. */
const LINK = /:\/\/|\bwww\.|[\p{L}\p{Nd}-]\.[\p{L}]{2,}\b/iu;

export type TextVerdict = { text: string } | { contradiction: string };

/**
 * The post's text around the analyzer's reasons. A text that names only the opposite direction makes the
 * decision incoherent: it is not posted.
 */
export function externalText(given: string, cell: string, conviction: number, trace: Trace): TextVerdict {
  const clean = cleanInline(given);
  const said = directionsIn(clean);
  if (said.opposite(conviction) && !said.own(conviction)) {
    return {
      contradiction: `the analyzer's text says ${conviction > 0 ? 'bearish' : 'bullish'} but its conviction is ${signed(conviction, 1)}`,
    };
  }
  const sentences = clean
    .split(/(?<=[.!?;])\s+/)
    .map((sentence) => sentence.replace(OWN_HEAD, '').trim())
    .filter((sentence) => sentence !== '');
  const reasons = sentences.filter((sentence) => isPlainReason(sentence, conviction));
  trace.push(
    `policy: the post's text is written from the conviction posted (${signed(conviction, 1)}%) around the analyzer's reasons` +
      (reasons.length < sentences.length ? '; its sentences stating a size, a direction or a link were left out' : ''),
  );
  return { text: composeSummary({ cell, conviction, reasons }) };
}

/** A reason says why: no size (the tail says it), no opposite direction, no link nobody asked for. */
export function isPlainReason(reason: string, conviction: number): boolean {
  const probe = probeOf(reason);
  return !SIZE.test(probe) && !LINK.test(probe) && !directionsIn(probe).opposite(conviction);
}

function directionsIn(text: string) {
  const probe = probeOf(text);
  const notBull = probe.replace(NOT_BULL, ' ');
  const plain = notBull.replace(NOT_BEAR, ' ');
  const up = BULL.test(plain) || plain !== notBull;
  const down = BEAR.test(plain) || notBull !== probe;
  return {
    own: (conviction: number) => (conviction > 0 ? up : down),
    opposite: (conviction: number) => (conviction > 0 ? down : up),
  };
}
