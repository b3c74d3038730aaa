import { describe, expect, it } from 'vitest';
import { loudness } from '../../src/analysis/amounts.js';
import { isNegated } from '../../src/analysis/negation.js';
import { readText, splitClauses } from '../../src/analysis/read-text.js';

describe('splitClauses', () => {
  it.each([
    ['Bitcoin is not bullish, but whales keep buying', ['Bitcoin is not bullish', 'whales keep buying']],
    ['ETF inflows hit $1.2B. Whales sold 10,000 BTC!', ['ETF inflows hit $1.2B.', 'Whales sold 10,000 BTC!']],
    ['Breaking: Binance halts withdrawals', ['Breaking:', 'Binance halts withdrawals']],
    ['BTC rallies while ETH lags', ['BTC rallies', 'ETH lags']],
    ['RSI not yet overbought', ['RSI not yet overbought']],
    ['line one\nline two | line three', ['line one', 'line two', 'line three']],
    ['   ', []],
  ])('%j', (text, clauses) => {
    expect(splitClauses(text)).toEqual(clauses);
  });
});

describe('isNegated', () => {
  const at = (clause: string, phrase: string): boolean => {
    const start = clause.indexOf(phrase);
    return isNegated(clause, start, start + phrase.length);
  };
  it.each([
    ['Bitcoin is not bullish', 'bullish', true],
    ["ETH isn't bullish", 'bullish', true],
    ['ETH isn’t bullish'.replace('’', "'"), 'bullish', true],
    ['withdrawals are no longer halted', 'withdrawals are no longer halted', true],
    ['BTC failed to break above resistance', 'break above', true],
    ['hack rumours denied', 'hack', true],
    ['the upgrade was delayed', 'upgrade', true],
    ['upgrade delayed', 'upgrade', true],
    ['not only did ETF inflows hit a record', 'ETF inflows', false],
    // Four words back is the reach: a negation further away belongs to another idea.
    ['no one expected that within a single week a breakout', 'breakout', false],
    ['Bitcoin is bullish', 'bullish', false],
    // "never been more" is the most of it; "never been less" is still its opposite.
    ['whales have never been more bullish on ether', 'bullish', false],
    ['miners have never been so bearish', 'bearish', false],
    ['funds have never been this bullish on SOL', 'bullish', false],
    ['whales have never been less bullish on ether', 'bullish', true],
    ['whales bought and the price dropped', 'whales bought', false],
  ])('%s / %s → %s', (clause, phrase, negated) => {
    expect(at(clause, phrase)).toBe(negated);
  });
});

describe('loudness', () => {
  it.each([
    ['ETF inflows', 1, undefined],
    ['Bitcoin breaks above $70K', 1, undefined],
    ['$10M exploit', 1, undefined],
    ['$100M exploit', 1.1, '$100M'],
    ['$500M in ETF inflows', 1.17, '$500M'],
    ['$1.2B in longs liquidated', 1.208, '$1.2B'],
    ['$1.2 billion in outflows', 1.208, '$1.2 billion'],
    ['10,000 BTC moved to Binance', 1.17, '10,000 BTC'],
    ['40,000 ETH withdrawn', 1.1, '40,000 ETH'],
    ['1,000 ETH withdrawn', 1, undefined],
    ['2 million dollars', 1, undefined],
    ['3 billion USD of stablecoins minted', 1.248, '3 billion USD'],
    ['$50T of anything', 1.5, '$50T'],
    ['$100M here and $2B there', 1.23, '$2B'],
  ])('%s → ×%d', (clause, multiplier, amount) => {
    const result = loudness(clause);
    expect(result.multiplier).toBeCloseTo(multiplier, 2);
    expect(result.amount).toBe(amount);
  });
});

describe('readText', () => {
  it('lets the longest phrase win an overlap', () => {
    expect(readText('Short squeeze liquidations hit bears').map((r) => r.matched)).toEqual([
      'Short squeeze liquidations',
    ]);
    expect(readText('Exchange withdrawals halted').map((r) => r.ruleId)).toEqual(['fundamental.withdrawals-halted']);
    expect(readText('SEC drops lawsuit against Coinbase').map((r) => r.ruleId)).toEqual(['macro.legal-win']);
  });

  it('keeps negation inside its clause', () => {
    const readings = readText('Bitcoin is not bullish, but whales keep buying');
    expect(readings.map((r) => [r.label, Math.sign(r.weight)])).toEqual([
      ['not bullish', -1],
      ['whales accumulating', 1],
    ]);
  });

  it('scales by the clause amount, boundedly', () => {
    const [plain] = readText('ETF inflows');
    const [loud] = readText('$500M ETF inflows');
    const [huge] = readText('$900T ETF inflows');
    expect(loud!.weight).toBeGreaterThan(plain!.weight);
    expect(huge!.weight).toBeCloseTo(plain!.weight * 1.5, 5);
    expect(loud!.amount).toBe('$500M');
  });

  it('reads curly apostrophes as straight ones', () => {
    expect(readText('Analysts aren’t bullish')[0]?.label).toBe('not bullish');
  });

  it('finds nothing in plain market chatter', () => {
    expect(readText('Bitcoin trades at $67,000 with 24h volume of $30B')).toEqual([]);
    expect(readText('')).toEqual([]);
  });
});
