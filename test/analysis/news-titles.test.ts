import { describe, expect, it } from 'vitest';
import { decide, direction } from './fixtures.js';

// News titles whose loaded word is not the coin's news: the grievance a case is over, a question whether
// a move has ended, a crypto firm's shares, money customers recover, the trial of a failed firm's people.
// Titles written for these tests.

describe('what a legal case is over is its grievance, not the news', () => {
  it('reads the win, not the rejection it was over', async () => {
    const { decision, trace } = await decide(
      'Fund issuer wins its appeal against the SEC over a spot ETF rejection',
      'active',
    );
    expect(direction(decision), trace.join('\n')).toBe('up');
    expect(trace.join('\n')).toContain('is discounted: what a case is over');
  });

  it('reads the suit, not the hack it is about', async () => {
    const { trace } = await decide('Depositors sue the exchange over a hack that emptied its hot wallet', 'active');
    expect(trace.join('\n')).toMatch(/"hack" is discounted: what a case is over/);
  });

  it('still reads a hack told without a case', async () => {
    expect(direction((await decide('Exchange hot wallet drained in a $60M hack')).decision)).toBe('down');
  });
});

describe('a question whether a move is over says no direction', () => {
  it.each(['Is the dogecoin rally over?', 'Is the ether sell-off finally over?'])('%j', async (text) => {
    const { decision, trace } = await decide(text, 'active');
    expect(direction(decision), trace.join('\n')).toBe('skip');
    expect(trace.join('\n')).toContain('asks whether it is over');
  });
});

describe("a crypto firm's shares are not a coin", () => {
  it('skips the stock move of an exchange', async () => {
    const { decision, trace } = await decide('Kraken shares slide 11% on its first day of trading', 'active');
    expect(direction(decision), trace.join('\n')).toBe('skip');
    expect(trace.join('\n')).toContain('another asset ("Kraken shares")');
  });

  it('still reads the coin beside it, and a stock feed names its stock by cashtag', async () => {
    expect(direction((await decide('Crypto stocks sink as BTC drops 4%')).decision)).toBe('down');
    expect(direction((await decide('$ACME - Acme beats estimates; shares up 9% after hours')).decision)).toBe('up');
  });
});

describe('money recovered is not a price', () => {
  it('skips customers recovering a share of their deposits', async () => {
    const { decision, trace } = await decide(
      'Lender customers recovered 85% of deposits under the payout plan',
      'active',
    );
    expect(direction(decision), trace.join('\n')).toBe('skip');
  });

  it('still reads a coin recovering a percentage', async () => {
    expect(direction((await decide('SOL recovers 6% after the morning flush')).decision)).toBe('up');
  });
});

describe('the trial of a failed firm’s people is an old story', () => {
  it.each([
    'Bankrupt lender Voyager’s former CEO sentenced over customer losses',
    'Three Arrows co-founder detained at the airport',
  ])('%j', async (text) => {
    const { decision, trace } = await decide(text, 'active');
    expect(direction(decision), trace.join('\n')).toBe('skip');
    expect(trace.join('\n')).toContain('the trial of a failed firm');
  });

  it('still reads charges against a firm that trades', async () => {
    expect(direction((await decide('Regulator charges Binance and its CEO with fraud')).decision)).toBe('down');
  });
});
