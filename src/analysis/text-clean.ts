import { TERMINAL_ESCAPE } from '../output/sanitize.js';

export { probeOf } from '../domain/probe.js';

// Text from the service, the user or an external analyzer ends up in a post and in traces printed to
// a terminal, so it is cleaned the same way everywhere: no lone surrogates (not encodable as UTF-8,
// the service cannot store them), no control or bidi-override characters (they rewrite terminals).
// Zero-width joiners stay: emoji sequences need them. Zero-width spaces, word joiners and soft hyphens go:
// they hide inside words ("+12\u200B%") from every check a person reading the post would not notice.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
/** Every other character Unicode says to ignore when displaying: they hide inside words ("12\u200C%"). */
const IGNORABLE = /(?![\u200D\uFE0F])\p{Default_Ignorable_Code_Point}/gu;
const INVISIBLE =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u00AD\u061C\u200B\u200E\u200F\u202A-\u202E\u2060\u2066-\u2069\uFEFF]/g;

/** For text kept as written (a user's post): line breaks stay, invisible characters go. */
export function cleanBlock(text: string): string {
  return (
    text
      .replace(IGNORABLE, '')
      // Whole, as on a terminal: removing only its ESC would leave "[31m" in a post.
      .replace(TERMINAL_ESCAPE, '')
      .replace(LONE_SURROGATE, '')
      .replace(/\r\n?|[\u2028\u2029]/g, '\n')
      .replace(INVISIBLE, '')
      .trim()
  );
}

/** For a phrase placed inside a sentence: one line, single spaces. */
export function cleanInline(text: string): string {
  return cleanBlock(text).replace(/\s+/g, ' ');
}

/** Python's len(), which is how a service written in anything but JavaScript counts characters. */
export function codePoints(text: string): number {
  let n = 0;
  for (const _ of text) n += 1;
  return n;
}

/** A signed number for traces: "+0.45", "-1.20". */
export function signed(value: number, digits = 2): string {
  const body = Math.abs(value).toFixed(digits);
  return value < 0 && Number(body) !== 0 ? `-${body}` : `+${body}`;
}
