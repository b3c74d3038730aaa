import { composeSummary, fitText } from './summary-text.js';
import { cleanInline, signed } from './text-clean.js';
import type { Trace } from './types.js';

// An external analyser's text must say what analysis.md asks of every post: the direction, the size
// actually posted, and why. A model's "Bearish … Expect -2.0%" over a conviction of +2.0, or its "+12%"
// over a clamped +0.7, would tell readers something the agent did not predict.

/** A stated size: "+12%", "-3.5 %", "12 percent", "4 pct". */
const SIZE = /([+\-−]?)\s?(\d+(?:[.,]\d+)?)\s*(?:%|percent\b|pct\b)/gi;
const DIRECTION = { up: /\bbullish\b/i, down: /\bbearish\b/i };

export type TextVerdict = { text: string } | { contradiction: string };

/**
 * The analyser's text when it states the posted direction and size (cleaned, trimmed to fit); otherwise
 * one composed around its sentences that state neither. A text that names only the opposite direction
 * is a contradiction: the decision is not posted.
 */
export function externalText(given: string, cell: string, conviction: number, trace: Trace): TextVerdict {
  const clean = cleanInline(given);
  const [own, other] = conviction > 0 ? [DIRECTION.up, DIRECTION.down] : [DIRECTION.down, DIRECTION.up];
  if (other.test(clean) && !own.test(clean)) {
    return { contradiction: `the analyser's text says ${conviction > 0 ? 'bearish' : 'bullish'} but its conviction is ${signed(conviction, 1)}` };
  }
  const fitted = fitText(given);
  if (fitted !== undefined && statesPost(fitted, conviction)) {
    if (fitted !== given) trace.push("policy: the analyser's text was cleaned or trimmed to fit 20-300 characters");
    return { text: fitted };
  }
  trace.push(
    fitted === undefined && Array.from(clean).length < 20
      ? "policy: the analyser's text is not 20-300 characters and cannot be trimmed; composing one"
      : `policy: the analyser's text does not state the direction and the size posted (${signed(conviction, 1)}%); composing one from its reasons`,
  );
  return { text: composeSummary({ cell, conviction, reasons: reasonsOf(clean) }) };
}

function statesPost(text: string, conviction: number): boolean {
  if (!(conviction > 0 ? DIRECTION.up : DIRECTION.down).test(text)) return false;
  const sizes = [...text.matchAll(SIZE)];
  return (
    sizes.length > 0 &&
    sizes.every(([, sign, digits]) => {
      const size = Number(digits!.replace(',', '.'));
      const signOk = sign === '' || (sign === '+') === conviction > 0;
      return signOk && Math.abs(size - Math.abs(conviction)) < 0.05;
    })
  );
}

/** The sentences that give reasons: none that states a size, and no leading "Bullish on c/x:". */
function reasonsOf(text: string): string[] {
  return text
    .split(/(?<=[.!?;])\s+/)
    .map((sentence) => sentence.replace(/^(?:bullish|bearish)(?:\s+on\s+\S+?)?(?:\s*[:,—–-]\s*|\s+because\s+|\s+as\s+)/i, '').trim())
    .filter((sentence) => sentence !== '' && !new RegExp(SIZE.source, 'i').test(sentence) && !/^(?:bullish|bearish)\W*$/i.test(sentence));
}
