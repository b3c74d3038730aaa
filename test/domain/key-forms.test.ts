import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FRAGMENT, KeyForms } from '../../src/domain/key-forms.js';
import { holdsKey } from '../../src/domain/probe.js';
import { DISGUISES, filler } from '../support/key-disguises.js';
import { makeOutput } from '../support/streams.js';

const KEY = 'hive_Q7xk2Lm9PzR4tVb8Nc3Wd6Yh1Js5Fg0aEr';

// A key as the service issues them, and any text around it, from any characters (joiners, escapes,
// surrogates, full-width forms and controls among them).
const base62 = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789');
const anyKey = fc.string({ unit: base62, minLength: 24, maxLength: 48 }).map((body) => `hive_${body}`);
const anyChar = fc.oneof(
  { weight: 6, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }) },
  { weight: 1, arbitrary: fc.constantFrom('\u200b', '\\', '\\u00', 'Ａ', '\uD83D', '…', '\n', '"') },
);
const anyText = fc.string({ unit: anyChar, maxLength: 60 });
const anyDisguise = fc.constantFrom(...Object.keys(DISGUISES));

describe('KeyForms, the one recogniser of the key', () => {
  it.each(Object.keys(DISGUISES))('finds the key %s, in other text, and masks all of it', (name) => {
    const disguised = DISGUISES[name]!(KEY);
    const text = `${filler(166)}${disguised}${filler(20)}`;
    const forms = new KeyForms(KEY);
    expect(forms.foundIn(text)).toBe(true);
    expect(holdsKey(text, KEY)).toBe(true);
    const masked = forms.mask(text, '[key]');
    expect(masked).toBe(`${filler(166)}[key]${filler(20)}`);
  });

  it('finds the key after a broken escape that would eat two of its characters when decoded', () => {
    // Found by the property below: `\u00` and a key's last 8 characters "aaaaaaaa" decode to "ª" and
    // six a's, while a reader of the raw text sees all eight.
    const key = 'hive_aaaaaaaaaaaaaaaaaaaaaaaa';
    const text = `\\u00${key.slice(-FRAGMENT)}`;
    expect(new KeyForms(key).foundIn(text)).toBe(true);
    expect(holdsKey(text, key)).toBe(true);
    expect(new KeyForms(key).mask(text, '[key]')).not.toContain(key.slice(-FRAGMENT));
  });

  it('finds no key in text that holds fewer than FRAGMENT of its characters in a row', () => {
    const forms = new KeyForms(KEY);
    expect(forms.foundIn(`${KEY.slice(0, FRAGMENT - 1)} and ${KEY.slice(-(FRAGMENT - 1))}`)).toBe(false);
    expect(forms.foundIn('hive_ is the prefix every key has')).toBe(false);
  });

  it('has no false negative on any disguise of any key, in any text (property)', () => {
    fc.assert(
      fc.property(anyKey, anyDisguise, anyText, anyText, (key, name, before, after) => {
        const text = `${before}${DISGUISES[name]!(key)}${after}`;
        const forms = new KeyForms(key);
        expect(forms.foundIn(text)).toBe(true);
        expect(holdsKey(text, key)).toBe(true);
      }),
      { numRuns: 400 },
    );
  });

  it('leaves no piece of FRAGMENT characters of the key once masked (property)', () => {
    fc.assert(
      fc.property(anyKey, fc.array(fc.tuple(anyDisguise, anyText), { maxLength: 4 }), anyText, (key, parts, tail) => {
        const text = parts.map(([name, other]) => `${other}${DISGUISES[name]!(key)}`).join('') + tail;
        const forms = new KeyForms(key);
        const masked = forms.mask(text, '…');
        expect(forms.foundIn(masked)).toBe(false);
      }),
      { numRuns: 400 },
    );
  });

  it('masks a key holding " or \\ in a --json document, which stays valid (property)', () => {
    const printable = fc.constantFrom(...Array.from({ length: 94 }, (_, i) => String.fromCharCode(0x21 + i)));
    const oddKey = fc.string({ unit: printable, minLength: 16, maxLength: 40 }).map((body) => `hive_${body}"\\${body}`);
    const plain = fc.string({ unit: fc.constantFrom(...'ab \n\u200b'), maxLength: 20 });
    fc.assert(
      fc.property(oddKey, plain, plain, (key, before, after) => {
        const { output, stdout } = makeOutput({ json: true });
        output.addSecret(key);
        output.result([], { api_key: key, bio: `${before}${key}${after}`, [key]: 1 });
        const forms = new KeyForms(key);
        expect(forms.foundIn(stdout.text)).toBe(false);
        const document = JSON.parse(stdout.text) as Record<string, unknown>;
        for (const [name, value] of Object.entries(document)) {
          expect(forms.foundIn(name)).toBe(false);
          expect(forms.foundIn(String(value))).toBe(false);
        }
      }),
      { numRuns: 300 },
    );
  });
});
