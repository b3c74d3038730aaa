import { describe, expect, it } from 'vitest';
import { decide, direction } from './fixtures.js';

// Posts as people write them on crypto boards, whose market words say no direction for the coin: talk of
// a trade (mocking weak hands, taking part of a profit, one's own liquidation), a past crash named as a
// lesson, a phishing warning, a crowded position's record, a slogan quoted back after it failed, a trade
// still being weighed. Each sentence is written for this test; the trace names the rule that took it.

describe('a market word that says no direction for the coin', () => {
  it.each([
    [
      'paper hands dumping their SOL at the lows, ill take those coins',
      'is talk of a trade that says no direction: trade.weak-hands',
    ],
    [
      'took some profits on DOGE today, riding the rest',
      'is talk of a trade that says no direction: trade.partial-profit',
    ],
    [
      'rekt on my 20x short again, done trading for the week',
      'is talk of a trade that says no direction: trade.own-liquidation',
    ],
    ['the 2018 crash taught me to never touch leverage', 'names a past event as background: background.past-event'],
    [
      'every bear market feels like the end while you are in it',
      'names a past event as background: background.past-event',
    ],
    ['heads up, fake airdrop links all over the replies, stay safe', 'is advice, not news: advice.phishing'],
    [
      'leveraged shorts at all time highs on ETH perps',
      "is a market metric's level or move, not the price's: metric.level",
    ],
    ['hodl they said. it will come back they said. still waiting', 'sarcasm ("hodl they said")'],
    ['considering dumping my whole LINK bag, is it over', 'undecided ("considering")'],
  ])('%j', async (text, line) => {
    for (const level of ['moderate', 'active'] as const) {
      const { decision, trace } = await decide(text, level);
      expect(direction(decision), trace.join('\n')).toBe('skip');
      expect(trace.join('\n')).toContain(line);
    }
  });
});

describe('the same words where they do say a direction', () => {
  it.each([
    ['Whales dump their SOL at the lows as the selloff deepens', 'down'],
    ['Bitcoin crashes 12% in an hour, longs liquidated', 'down'],
    ['Bitcoin hits an all time high above 120k', 'up'],
    ['Traders take profits as bitcoin slides 8% in a day', 'down'],
    ['Beware, this token is a scam and the team is gone', 'down'],
  ])('%j', async (text, want) => {
    const { decision, trace } = await decide(text, 'active');
    expect(direction(decision), trace.join('\n')).toBe(want);
  });
});
