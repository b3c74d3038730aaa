import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { holdsKey } from '../../src/domain/probe.js';
import { oneLine } from '../../src/output/sanitize.js';
import { makeOutput } from '../support/streams.js';

/**
 * key-never-shown, checked by a reader written apart from the program's own: it decodes `\uXXXX`, folds
 * compatibility forms, drops what no one sees and ignores case, then looks for any 8 characters of the key.
 */
const KEY = 'hive_0123456789abcdefSECRETKEYxyzw42';

function reading(text: string): string {
  return text
    .replace(/\\u([0-9a-fA-F]{4})/g, (_all, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)))
    .normalize('NFKC')
    .replace(/[\p{Default_Ignorable_Code_Point}\p{Cc}]/gu, '')
    .toLowerCase();
}

function givesKeyAway(text: string): boolean {
  const seen = reading(text);
  const key = reading(KEY);
  for (let at = 0; at + 8 <= key.length; at++) if (seen.includes(key.slice(at, at + 8))) return true;
  return false;
}

const disguises: Array<[name: string, dress: (key: string) => string]> = [
  ['as issued', (k) => k],
  ['upper-cased', (k) => k.toUpperCase()],
  ['lower-cased', (k) => k.toLowerCase()],
  ['one letter escaped', (k) => k.replace('e', '\\u0065')],
  ['every letter escaped', (k) => Array.from(k, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')],
  ['split by U+200B', (k) => Array.from(k).join('\u200b')],
  ['a soft hyphen inside', (k) => `${k.slice(0, 10)}\u00ad${k.slice(10)}`],
  [
    'full-width',
    (k) => Array.from(k, (c) => (c > ' ' && c <= '~' ? String.fromCharCode(c.charCodeAt(0) + 0xfee0) : c)).join(''),
  ],
];

/** Every piece of 8 or more characters a cut can leave, at either end. */
function pieces(): string[] {
  const out: string[] = [];
  for (let n = 8; n <= KEY.length; n++) out.push(KEY.slice(0, n), KEY.slice(KEY.length - n));
  return out;
}

describe('the key in any form is masked before anything is cut', () => {
  it('holds for every disguise, every piece, and a 200-character cut at every place', () => {
    const { output } = makeOutput({});
    output.addSecret(KEY);
    let checked = 0;
    for (const [, dress] of disguises) {
      for (const piece of pieces()) {
        const shown = dress(piece);
        expect(holdsKey(`x ${shown} y`, KEY)).toBe(true);
        for (const before of [0, 1, 166, 190, 199]) {
          const text = `${'a'.repeat(before)}${shown} after`;
          expect(givesKeyAway(output.redact(text))).toBe(false);
          expect(givesKeyAway(oneLine(output.redact(text), 200))).toBe(false);
          checked++;
        }
      }
    }
    expect(checked).toBe(disguises.length * pieces().length * 5);
  });

  it('leaves a text without the key as it is', () => {
    const { output } = makeOutput({});
    output.addSecret(KEY);
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (text) => {
        fc.pre(!givesKeyAway(text));
        expect(output.redact(text)).toBe(text);
      }),
    );
  });

  it('masks the key wherever it sits in any text', () => {
    const { output } = makeOutput({});
    output.addSecret(KEY);
    fc.assert(
      fc.property(
        fc.string({ maxLength: 250 }),
        fc.constantFrom(...disguises.map(([, dress]) => dress)),
        fc.integer({ min: 0, max: KEY.length - 8 }),
        fc.integer({ min: 8, max: KEY.length }),
        fc.string({ maxLength: 50 }),
        (before, dress, start, length, after) => {
          const piece = KEY.slice(start, Math.min(KEY.length, start + length));
          fc.pre(piece.length >= 8);
          const masked = output.redact(`${before}${dress(piece)}${after}`);
          expect(givesKeyAway(masked)).toBe(false);
        },
      ),
    );
  });
});
