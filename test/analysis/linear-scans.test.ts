import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { wordsAfter, wordsBefore } from '../../src/analysis/nearby-words.js';
import { endsAsking } from '../../src/analysis/read-text.js';
import { quotedSpans } from '../../src/analysis/reading-cues.js';
import { newsBefore } from '../../src/analysis/text-frames.js';

// The scans that replaced two exponentially backtracking patterns decide as those patterns did. The
// patterns stay here, as the definition, run only on texts short enough for them to finish.
const OLD_NEWS_BEFORE = /(?:\w{2,}\S*\s+){2,}\S*(?:[.!:;\u2013\u2014]|\s-)\s*$/;
const OLD_ASKS = /\?["'\u201D)\s]*(?:https?:\/\/\S+\s*)*$/;
const OLD_QUOTED = /"[^"\n]{1,80}"|\u201C[^\u201D\n]{1,80}\u201D|(?<!\w)'[^'\n]{1,60}'(?!\w)/g;

const textOf = (parts: string[]) => fc.array(fc.constantFrom(...parts), { maxLength: 9 }).map((p) => p.join(''));

describe('the scans decide as the patterns they replace', () => {
  it('news before a teaser', () => {
    const parts = [
      'ab',
      'Bitcoin',
      'x',
      'é',
      '5%',
      '_a',
      ' ',
      '  ',
      '\n',
      '.',
      '!',
      ':',
      ';',
      '\u2013',
      '-',
      '?',
      'ab.',
    ];
    fc.assert(
      fc.property(textOf(parts), (text) => newsBefore(text) === OLD_NEWS_BEFORE.test(text)),
      {
        numRuns: 5000,
      },
    );
  });

  it('a question before closing marks and links', () => {
    const parts = ['?', '"', "'", '\u201D', ')', ' ', '\n', 'https://', 'http://', 'x', 'why', 'a?b', 'h', '/'];
    fc.assert(
      fc.property(textOf(parts), (text) => endsAsking(text) === OLD_ASKS.test(text)),
      {
        numRuns: 5000,
      },
    );
  });

  it('the quoted spans of a clause', () => {
    const marks = fc.constantFrom('"', "'", '\u201C', '\u201D', 'a', 'it', ' ', '\n', '.');
    // Runs of any length around the quotes' reach (60 and 80 characters).
    const run = fc.nat(90).map((n) => 'x'.repeat(n));
    const text = fc.array(fc.oneof(marks, marks, run), { maxLength: 9 }).map((p) => p.join(''));
    const spans = (text: string) =>
      [...text.matchAll(OLD_QUOTED)].map((m) => ({ start: m.index, end: m.index + m[0].length }));
    fc.assert(
      fc.property(text, (text) => {
        expect(quotedSpans(text)).toEqual(spans(text));
      }),
      { numRuns: 20_000 },
    );
  });

  it('the words near a phrase', () => {
    const parts = ['ab', 'x', ' ', '  ', '\n', 'é', '.'];
    const at = fc.tuple(textOf(parts), fc.nat(20), fc.integer({ min: 1, max: 6 }));
    fc.assert(
      fc.property(at, ([text, i, n]) => {
        const pos = Math.min(i, text.length);
        return (
          wordsBefore(text, pos, n) === text.slice(0, pos).trimEnd().split(/\s+/).slice(-n).join(' ') &&
          wordsAfter(text, pos, n) === text.slice(pos).trimStart().split(/\s+/).slice(0, n).join(' ')
        );
      }),
      { numRuns: 5000 },
    );
  });

  it('ordinary cases', () => {
    expect(newsBefore('Bitcoin drops 5%. ')).toBe(true);
    expect(newsBefore('Dow up 300 points - ')).toBe(true);
    expect(newsBefore('Bitcoin miners are sending coins to exchanges at the fastest pace and ')).toBe(false);
    expect(endsAsking('Is this the top? https://t.co/x')).toBe(true);
    expect(endsAsking('Bitcoin tops $100k')).toBe(false);
    // A closing apostrophe right at the reach, followed by a letter, closes nothing.
    expect(quotedSpans(`'it${'x'.repeat(58)}'a`)).toEqual([]);
    expect(quotedSpans('a "safe" haven, it\'s \u201Cdigital gold\u201D')).toEqual([
      { start: 2, end: 8 },
      { start: 21, end: 35 },
    ]);
  });
});
