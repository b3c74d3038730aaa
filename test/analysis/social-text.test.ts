import { describe, expect, it } from 'vitest';
import { isNegated } from '../../src/analysis/negation.js';
import { readText } from '../../src/analysis/read-text.js';

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
