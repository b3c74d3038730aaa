import { describe, expect, it } from 'vitest';
import { composeSummary, fitText, isValidText } from '../../src/analysis/summary-text.js';
import { codePoints, isPostable } from './fixtures.js';

describe('fitText', () => {
  it.each([
    [
      'keeps a valid text as written',
      'ETF demand keeps absorbing new supply.',
      'ETF demand keeps absorbing new supply.',
    ],
    ['trims surrounding space', '   ETF demand keeps absorbing supply.  ', 'ETF demand keeps absorbing supply.'],
    ['keeps line breaks', 'Line one is here.\r\nLine two is here.', 'Line one is here.\nLine two is here.'],
    [
      'drops control and bidi characters',
      'Bullish\u0007 on \u202Ebitcoin today, really.',
      'Bullish on bitcoin today, really.',
    ],
    ['drops lone surrogates', 'Bullish \uD83D on bitcoin today, really.', 'Bullish  on bitcoin today, really.'],
    ['rejects a text that is too short', 'Up only.', undefined],
    ['rejects 19 code points', '🚀'.repeat(19), undefined],
    ['accepts 20 code points in 40 UTF-16 units', '🚀'.repeat(20), '🚀'.repeat(20)],
    ['rejects one long unbreakable word', 'a'.repeat(301), undefined],
    ['rejects a text whose only break is too early', `Up ${'a'.repeat(400)}`, undefined],
    ['empty', '', undefined],
  ])('%s', (_name, input, expected) => {
    expect(fitText(input)).toBe(expected);
  });

  it('keeps exactly 300 units, and cuts 301 at the last space', () => {
    const exact = `${'word '.repeat(59)}word`;
    expect(exact.length).toBe(299);
    expect(fitText(`${exact}s`)).toBe(`${exact}s`);
    const over = `${exact}s!`;
    expect(fitText(over)).toBe(`${'word '.repeat(58)}word…`);
  });

  it('never cuts inside a surrogate pair or a word', () => {
    const text = `${'🚀🌕 moon '.repeat(60)}`;
    const fitted = fitText(text)!;
    expect(isPostable(fitted)).toBe(true);
    expect(fitted.endsWith('moon…')).toBe(true);
    expect(text.startsWith(fitted.slice(0, -1))).toBe(true);
  });

  it('cuts trailing punctuation before the ellipsis', () => {
    const fitted = fitText(`${'alpha, '.repeat(60)}`)!;
    expect(fitted.endsWith('alpha…')).toBe(true);
  });
});

describe('isValidText', () => {
  it('counts both ways', () => {
    expect(isValidText('x'.repeat(20))).toBe(true);
    expect(isValidText('x'.repeat(19))).toBe(false);
    expect(isValidText('x'.repeat(300))).toBe(true);
    expect(isValidText('x'.repeat(301))).toBe(false);
    // 150 emoji: 150 code points but 300 UTF-16 units; one more is over for JavaScript.
    expect(isValidText('😀'.repeat(150))).toBe(true);
    expect(isValidText('😀'.repeat(151))).toBe(false);
  });
});

describe('composeSummary', () => {
  it('states direction, cell, reasons and size', () => {
    expect(
      composeSummary({
        cell: 'arbitrum',
        conviction: -1.8,
        reasons: ['token unlock adds supply', 'exchange inflows rising'],
      }),
    ).toBe('Bearish on c/arbitrum: token unlock adds supply, exchange inflows rising. Expect -1.8% in 3h.');
    expect(composeSummary({ cell: 'bitcoin', conviction: 0.1, reasons: [] })).toBe(
      'Bullish on c/bitcoin. Expect +0.1% in 3h.',
    );
  });

  it('quotes at most three reasons, once each, without their end punctuation', () => {
    const text = composeSummary({ cell: 'eth', conviction: 2, reasons: ['a.', 'A', 'b!', ' ', 'c', 'd'] });
    expect(text).toBe('Bullish on c/eth: a, b, c. Expect +2.0% in 3h.');
  });

  it('leaves out a reason that does not fit, whole', () => {
    const long = 'x'.repeat(280);
    const text = composeSummary({ cell: 'bitcoin', conviction: 1, reasons: [long, 'whales accumulating'] });
    expect(text).toBe('Bullish on c/bitcoin: whales accumulating. Expect +1.0% in 3h.');
  });

  it('drops a cell name that alone would overflow', () => {
    const text = composeSummary({ cell: '🐸'.repeat(200), conviction: -4, reasons: ['rug pull'] });
    expect(text).toBe('Bearish: rug pull. Expect -4.0% in 3h.');
  });

  it('always fits, with emoji and broken surrogates in reasons and cell', () => {
    const text = composeSummary({ cell: 'p\uD800epe🐸', conviction: 0.3, reasons: ['🚀'.repeat(100), 'x\uDC00y'] });
    expect(isPostable(text)).toBe(true);
    expect(text).toBe(`Bullish on c/pepe🐸: ${'🚀'.repeat(100)}, xy. Expect +0.3% in 3h.`);
    expect(codePoints(text)).toBeLessThan(text.length);
  });
});
