/**
 * The one rule that finds a key in a text (key-never-shown), for the guard before sending and for the mask
 * of everything written or shown alike. A text is read as a reader (or a JSON parser, or a terminal) would
 * read it: each `\uXXXX` escape decoded, compatibility forms folded by NFKC ("ｈｉｖｅ" is "hive"), every
 * ignorable or control character dropped (a zero-width space splits nothing a reader sees), and lower-cased.
 * A text with a backslash is read three times: with its escapes decoded, as the inside of a JSON string
 * (`\"` is `"`, `\\` is `\`), so that a key holding either is found in a JSON document as in a line, and
 * literally, escapes not decoded: in `\u00` followed by a key of hex-like characters, decoding the escape
 * would eat two of the key's characters that a reader of the raw text still sees.
 * In that reading, any run of FRAGMENT or more characters of the key counts: a key cut by a length limit,
 * or split in two, gives away what is left of it.
 */
export const FRAGMENT = 8;

/** Dropped from a reading: what no reader sees, and the controls sanitising removes before printing. */
const UNSEEN = /[\p{Default_Ignorable_Code_Point}\u0000-\u0008\u000b-\u001f\u007f-\u009f]/u;
const ESCAPE = /^\\u[0-9a-fA-F]{4}$/;

/** A text as read, with where each of its characters came from in the text (a span of code units). */
interface Reading {
  text: string;
  /** Absent when each character is where it was (plain printable ASCII). */
  from?: number[];
  to?: number[];
}

const PLAIN = /^[\t\n\x20-\x5b\x5d-\x7e]*$/;

const JSON_ESCAPED = new Set(['"', '\\', '/']);

/** Which backslash escapes a reading decodes: none, `\uXXXX` only, or those of a JSON string too. */
type Escapes = 'none' | 'unicode' | 'json';

function read(text: string, escapes: Escapes = 'unicode'): Reading {
  // Most text is plain ASCII with nothing to decode or drop: read as it is, a tenth of the time.
  if (PLAIN.test(text)) return { text: text.toLowerCase() };
  let out = '';
  const from: number[] = [];
  const to: number[] = [];
  let at = 0;
  while (at < text.length) {
    const code = text.charCodeAt(at);
    let end: number;
    let seen: string;
    if (code < 0x80 && code !== 0x5c) {
      // ASCII other than a backslash: NFKC leaves it as it is; only controls are dropped.
      end = at + 1;
      seen = code < 0x20 && code !== 0x09 && code !== 0x0a ? '' : code === 0x7f ? '' : text[at]!.toLowerCase();
    } else {
      let char: string;
      if (code === 0x5c && escapes !== 'none' && ESCAPE.test(text.slice(at, at + 6))) {
        char = String.fromCharCode(Number.parseInt(text.slice(at + 2, at + 6), 16));
        end = at + 6;
      } else if (code === 0x5c && escapes === 'json' && JSON_ESCAPED.has(text.charAt(at + 1))) {
        char = text.charAt(at + 1);
        end = at + 2;
      } else {
        char = String.fromCodePoint(text.codePointAt(at)!);
        end = at + char.length;
      }
      seen = seenForm(char);
    }
    for (const c of seen) {
      for (let i = 0; i < c.length; i++) {
        out += c[i];
        from.push(at);
        to.push(end);
      }
    }
    at = end;
  }
  return { text: out, from, to };
}

/** One character as a reader takes it: folded, lower-cased, or nothing at all. */
function seenForm(char: string): string {
  return Array.from(char.normalize('NFKC').toLowerCase())
    .filter((c) => !UNSEEN.test(c))
    .join('');
}

/** A key's own reading: what its FRAGMENT-character pieces are taken from. */
export function keyReading(key: string): string {
  return read(key).text;
}

/** One key, recognised in a text in any of the forms above, and masked there. */
export class KeyForms {
  private readonly pieces = new Set<string>();
  private readonly width: number;

  constructor(key: string) {
    const seen = keyReading(key);
    // A key shorter than a fragment is found only whole.
    this.width = Math.min(FRAGMENT, seen.length);
    if (!this.width) return;
    for (let at = 0; at + this.width <= seen.length; at++) this.pieces.add(seen.slice(at, at + this.width));
  }

  /** Whether the text holds the key, or a fragment of it, in any form. */
  foundIn(text: string): boolean {
    return this.spans(text).length > 0;
  }

  /**
   * The text with every span that holds the key (or a piece of it) replaced by `mask`: the characters
   * of the text itself, escapes and joiners inside the span included, so what is left holds no piece.
   */
  mask(text: string, mask: string): string {
    const spans = this.spans(text);
    if (!spans.length) return text;
    let out = '';
    let from = 0;
    for (const [start, end] of spans) {
      out += text.slice(from, start) + mask;
      from = end;
    }
    return out + text.slice(from);
  }

  /** Spans of the text, in order and apart, each the union of the overlapping pieces found there. */
  spans(text: string): Array<[number, number]> {
    if (!this.width || text.length < this.width) return [];
    const found = this.spansIn(read(text));
    if (!text.includes('\\')) return found;
    return union([...found, ...this.spansIn(read(text, 'json')), ...this.spansIn(read(text, 'none'))]);
  }

  private spansIn(seen: Reading): Array<[number, number]> {
    const spans: Array<[number, number]> = [];
    let runEnd = -1;
    for (let at = 0; at + this.width <= seen.text.length; at++) {
      if (!this.pieces.has(seen.text.slice(at, at + this.width))) continue;
      const start = seen.from ? seen.from[at]! : at;
      const end = seen.to ? seen.to[at + this.width - 1]! : at + this.width;
      const last = spans[spans.length - 1];
      if (last && at <= runEnd) last[1] = Math.max(last[1], end);
      else spans.push([start, end]);
      runEnd = at + this.width;
    }
    return spans;
  }
}

/** Spans in order, the overlapping and touching ones merged. */
function union(spans: Array<[number, number]>): Array<[number, number]> {
  const merged: Array<[number, number]> = [];
  for (const [start, end] of spans.sort((a, b) => a[0] - b[0])) {
    const last = merged[merged.length - 1];
    if (last && start <= last[1]) last[1] = Math.max(last[1], end);
    else merged.push([start, end]);
  }
  return merged;
}
