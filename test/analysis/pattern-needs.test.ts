import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lexicon } from '../../src/analysis/lexicon.js';
import { masks } from '../../src/analysis/lexicon-masks.js';
import { mayMatch, needsOf } from '../../src/analysis/pattern-needs.js';
import { splitClauses } from '../../src/analysis/read-text.js';

// The prefilter may only ever say "cannot match" when the pattern truly cannot: a wrong "cannot" would
// silently drop evidence. These tests hold it to that on every pattern of the lexicon.

const PATTERNS = [...lexicon(), ...masks()].flatMap((rule) =>
  rule.patterns.map((pattern, i) => ({ id: `${rule.id}#${i}`, pattern, needs: rule.needs[i] })),
);

function unsound(text: string): string[] {
  const lower = text.toLowerCase();
  return PATTERNS.filter(({ pattern, needs }) => {
    pattern.lastIndex = 0;
    const matches = pattern.test(text);
    pattern.lastIndex = 0;
    return matches && !mayMatch(needs, lower);
  }).map((p) => p.id);
}

describe('needsOf', () => {
  it.each([
    ['withdr[ae]w(?:s|n)?', [['withdr'], ['w']]],
    ['(?<!not )bullish', [['bullish']]],
    ['stops?', [['stop']]],
    ['up\\s+\\d+%', [['up'], ['%']]],
    // The most selective set first: the one whose shortest text is longest.
    ['(?:halts?|paused) all (?:trading|deposits?)', [['trading', 'deposit'], ['halt', 'paused'], [' all ']]],
    ['\\$[\\d.]+ fine', [[' fine'], ['$']]],
    // Words nearly every clause has select nothing.
    ['(?:the|to) end', [[' end']]],
  ])('%s → %j', (source, needs) => {
    expect(needsOf(source)).toEqual(needs);
  });

  it.each([
    ['(?:|abc)', 'an alternative that needs nothing'],
    ['.{0,20}?', 'nothing literal'],
    ['x{', 'syntax it does not know'],
  ])('requires nothing of %s (%s)', (source) => {
    expect(needsOf(source)).toBeUndefined();
  });

  it('knows something about every pattern of the lexicon', () => {
    expect(PATTERNS.filter((p) => p.needs === undefined).map((p) => p.id)).toEqual([]);
  });
});

describe('the prefilter never drops a match', () => {
  it('on every clause of the corpus and of the lexicon fixtures', () => {
    const corpus = fileURLToPath(new URL('../fixtures/eval/corpus.jsonl', import.meta.url));
    const texts = readFileSync(corpus, 'utf8')
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { text: string }).text);
    const fixtures = fileURLToPath(new URL('./lexicon.test.ts', import.meta.url));
    const headlines = [
      ...readFileSync(fixtures, 'utf8').matchAll(/^\s+\[["'](.+?)["'], '[a-z]+\.[a-z-]+', -?[01]\],$/gm),
    ].map((m) => m[1]!);
    expect(headlines.length).toBeGreaterThan(200);
    for (const clause of [...texts, ...headlines].flatMap(splitClauses)) expect(unsound(clause), clause).toEqual([]);
  });

  it('on random text made of the words the patterns look for', () => {
    const words = [...new Set(PATTERNS.flatMap((p) => p.needs?.flat() ?? []))].slice(0, 2000);
    const piece = fc.oneof(
      fc.constantFrom(...words),
      fc.constantFrom(' ', ', ', ' $70K ', ' 12% ', ' not ', 'BTC', 'ETF'),
      fc.string({ maxLength: 4 }),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 14 }), (pieces) => {
        const text = pieces.join(' ');
        expect(unsound(text), text).toEqual([]);
      }),
      { numRuns: 150 },
    );
  });
});
