import { describe, expect, it } from 'vitest';
import { isNegated } from '../../src/analysis/negation.js';
import { readText } from '../../src/analysis/read-text.js';
import { decide, direction } from './fixtures.js';

// Social posts and news titles as people write them: no apostrophes, links, handles, first-person talk.
const counted = (text: string) => readText(text).filter((r) => r.weight !== 0);
const ruleIds = (text: string) => counted(text).map((r) => r.ruleId);

describe('negation written without an apostrophe', () => {
  const at = (clause: string, phrase: string): boolean => {
    const start = clause.indexOf(phrase);
    return isNegated(clause, start, start + phrase.length);
  };
  it.each([
    ['the token wont recover', 'recover'],
    ['holders arent buying this bounce', 'buying'],
    ['the chart doesnt look bullish', 'bullish'],
    ['nothing can stop the rally now', 'rally'],
    ['BTC aint going to crash, relax', 'crash'],
    ['nobody is selling at these prices', 'selling'],
    ['no one is buying this pump', 'buying'],
  ])('%j negates %j', (clause, phrase) => {
    expect(at(clause, phrase)).toBe(true);
  });
  it.each([
    ['never seen BTC this bullish', 'bullish'],
    ['never saw the market so bullish', 'bullish'],
  ])('%j is a superlative: it does not negate %j', (clause, phrase) => {
    expect(at(clause, phrase)).toBe(false);
  });
});

describe('words outside the author\u2019s text', () => {
  it('reads no word inside a link', () => {
    expect(counted('Quiet day, see https://news.example/exchange-hacked-etf-rejected')).toEqual([]);
    expect(counted('More at www.example.org/token-crash-report today')).toEqual([]);
  });
  it('reads no word inside a handle', () => {
    expect(counted('thanks @crash_alerts and u/rugpull_hunter')).toEqual([]);
  });
  it('still reads the words around a link', () => {
    expect(ruleIds('Exchange hacked, 40M drained https://news.example/story')).not.toEqual([]);
  });
});

describe('a conviction is a verdict only with its charge', () => {
  it('does not read a belief as a court ruling', () => {
    expect(ruleIds('I have the conviction that this chain is here to stay')).not.toContain('fraud.charged');
  });
  it('reads a conviction for a crime', () => {
    expect(ruleIds('Exchange founder faces a conviction for fraud')).toContain('fraud.charged');
  });
});

describe("the author's own buying", () => {
  it.each(['Red week again. I am buying more', 'I keep averaging in every Friday', 'I think the bottom is in'])(
    '%j is bullish',
    (text) => {
      const own = counted(text).filter((r) => r.ruleId === 'social.own-buying');
      expect(own).toHaveLength(1);
      expect(own[0]?.weight).toBeGreaterThan(0);
    },
  );
  it("does not read someone else's buying as the author's", () => {
    expect(ruleIds('the whales are buying more')).not.toContain('social.own-buying');
  });
});

describe('words of the debate in a conversation', () => {
  it('ignores FUD and hype in a first- or second-person post', () => {
    expect(ruleIds('Ignore the FUD, I am not worried')).not.toContain('sentiment.fud');
    expect(ruleIds('you bought into the hype')).not.toContain('sentiment.hype');
  });
  it('reads them in a report', () => {
    expect(ruleIds('FUD spreads across forums after the outage')).toContain('sentiment.fud');
  });
  it('halves what a conversation describes, not what the author holds', () => {
    const talk = counted('you will see it crash hard').find((r) => r.cue === 'price move');
    const report = counted('Bitcoin will crash hard').find((r) => r.cue === 'price move');
    expect(talk?.notes.join(' ')).toContain('first- or second-person post');
    expect(Math.abs(talk?.weight ?? 0)).toBeLessThan(Math.abs(report?.weight ?? 0));
  });
});

describe('a post that leaves out its "I"', () => {
  it.each([
    ['Floor looks close for LTC, buying more here', 'builtin: "buying more" → the author buying +0.38'],
    ['Averaging in on SOL every Friday, red weeks are a discount', 'builtin: "Averaging in" → the author buying +0.38'],
    ['Bottom is in for DOGE imo', 'builtin: "Bottom is in" → the author buying +0.38'],
    ['Averaging down on ADA all month', 'builtin: "Averaging down" → the author buying +0.38'],
  ])('%j is the author buying, posted at moderate', async (text, line) => {
    const { decision, trace } = await decide(text);
    expect(direction(decision), trace.join('\n')).toBe('up');
    expect(trace.some((t) => t.startsWith(line))).toBe(true);
  });
  it('says in the trace that the subject was left out', async () => {
    const { trace } = await decide('Quiet week, averaging in on ETH');
    expect(trace).toContain(
      'builtin: "averaging in" → the author buying +0.38 (sentiment, the author\'s own, subject left out, ×1.25 own method)',
    );
  });
  it.each([
    ['My brother is buying more every week', 'My brother'],
    ['my cautious neighbour keeps averaging in', 'my cautious neighbour'],
    ['He says the bottom is in', 'He'],
  ])('%j is someone else buying', async (text, who) => {
    const { decision, trace } = await decide(text);
    expect(direction(decision), trace.join('\n')).toBe('skip');
    expect(trace.some((t) => t.includes(`is someone else's position ("${who}"), not the author's`))).toBe(true);
  });
  it('reads the author after someone else in the same clause', () => {
    expect(ruleIds('my cousin thinks I am buying more')).toContain('social.own-buying');
  });
  it('does not take an adjective that opens a clause for a dropped "I"', () => {
    expect(ruleIds('Bullish headlines all week')).toEqual(['sentiment.bullish-word']);
    expect(counted('Bullish headlines all week')[0]?.author).toBeUndefined();
  });
});

describe('buying the dip is a position someone holds', () => {
  it("posts the author's own dip buying at moderate", async () => {
    const { decision, trace } = await decide('Bought the dip this morning, feeling good');
    expect(direction(decision), trace.join('\n')).toBe('up');
    expect(trace).toContain(
      'builtin: "Bought the dip" → buyers accumulating +0.40 (onchain, the author\'s own, subject left out)',
    );
  });
  it("reads the crowd's dip buying as someone else's position", async () => {
    const { decision, trace } = await decide('Everybody is buying the dip again');
    expect(direction(decision)).toBe('skip');
    expect(trace).toContain(
      'builtin: "buying the dip" is discounted: someone else\'s position ("Everybody is"): market.accumulation ignored',
    );
  });
  it.each(['Added 2k on this dip, next stop my 10k goal', 'Bought some more in the dip'])(
    '%j is the author buying where the dip is',
    async (text) => {
      const { decision, trace } = await decide(text);
      expect(direction(decision), trace.join('\n')).toBe('up');
      expect(trace.join('\n')).toContain("buyers accumulating +0.40 (onchain, the author's own, subject left out)");
    },
  );
  it('still reads buyers in the news', async () => {
    const { decision } = await decide('Whales are buying the dip on ETH');
    expect(direction(decision)).toBe('up');
  });
});

describe("a call to buy is the author's, and outweighs the fear it answers", () => {
  it.each([
    [
      'Perfect time to stack more sats',
      'builtin: "Perfect time to stack" → a call to buy +0.38 (sentiment, the author\'s own call, ×1.25 own method)',
    ],
    [
      'The selloff in SOL is a buying opportunity',
      'builtin: "buying opportunity" → a call to buy +0.38 (sentiment, the author\'s own call, ×1.25 own method)',
    ],
    [
      'Weak hands are panic selling. Good, that is my opportunity to buy more.',
      'builtin: "opportunity to buy" → a call to buy +0.38 (sentiment, ×1.25 own method)',
    ],
  ])('%j posts up at moderate', async (text, line) => {
    const { decision, trace } = await decide(text);
    expect(direction(decision), trace.join('\n')).toBe('up');
    expect(trace).toContain(line);
  });
  it('discounts the bear word the call answers', async () => {
    const { trace } = await decide('The selloff in SOL is a buying opportunity');
    expect(trace.join('\n')).toContain("×0.25 the author's own stance is the other way");
  });
  it.each(['Is it time to buy ETH?', 'My uncle thinks it is time to buy', 'Not a good time to buy'])(
    '%j does not post',
    async (text) => {
      const { decision, trace } = await decide(text);
      expect(direction(decision), trace.join('\n')).toBe('skip');
    },
  );
});

describe("a hold on the author's own account is a support case", () => {
  it.each([
    'okx froze my withdrawals again and now wants proof of address, great service',
    'day 6 of my withdrawal being paused while compliance reviews my documents',
  ])('%j posts nothing, even at active', async (text) => {
    const { decision, trace } = await decide(text, 'active');
    expect(direction(decision)).toBe('skip');
    expect(trace.join('\n')).toContain("is discounted: one customer's support case");
  });
  it('still reads an exchange halting withdrawals for everyone', async () => {
    const { decision, trace } = await decide('Exchange halts withdrawals for all users, support says no ETA');
    expect(direction(decision)).toBe('down');
    expect(trace.join('\n')).toContain('→ withdrawals halted');
  });
});

describe('a scene the reader is asked to imagine', () => {
  it.each([
    'imagine buying a memecoin at the top and watching it crash 95% lmao',
    'Imagine holding that token while the price soared 400% and selling at 2x',
  ])('%j posts nothing, even at active', async (text) => {
    const { decision, trace } = await decide(text, 'active');
    expect(direction(decision)).toBe('skip');
    expect(trace.join('\n')).toContain('is discounted: imagined');
  });
});
