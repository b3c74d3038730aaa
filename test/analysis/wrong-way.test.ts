import { describe, expect, it } from 'vitest';
import { sentenceCount } from '../../src/analysis/read-text.js';
import { decide, direction } from './fixtures.js';

// Real comments carry market words in arguments, stories and slogans whose tone is the other way. Each
// case here is a reading that posted the wrong way before, in words written for this test, and the
// trace line `analyze -v` prints for it.

describe('a phrase in the wrong frame counts nothing', () => {
  it.each([
    ['The chain has weathered a decade of FUD and it is still standing.', 'withstood ("weathered")'],
    ['ETH survived another crash, like every time before.', 'withstood ("survived")'],
    ['The banks are the real scam here, not the coins.', 'happened to someone else ("banks")'],
    ['Central banks print money forever, the biggest ponzi of all.', 'happened to someone else'],
    ['SOL has to reclaim 200 before anyone calls this a bull market.', 'a condition not yet met'],
    ['Release shipped, now let\u2019s celebrate with pizza!', 'firm adds crypto support'],
    ['New rules require exchanges to record every trade made on them.', 'no market phrase found'],
  ])('%j', async (text, line) => {
    const { decision, trace } = await decide(text, 'active');
    expect(direction(decision), trace.join('\n')).toBe('skip');
    if (line.startsWith('firm')) expect(trace.join('\n')).not.toContain(line);
    else expect(trace.join('\n')).toContain(line);
  });

  it('still reads a scam about a coin, and a record as a level', async () => {
    expect(direction((await decide('This token is a scam.')).decision)).toBe('down');
    expect(direction((await decide('BTC climbs to a record as inflows pour in')).decision)).toBe('up');
  });
});

describe('one phrase in a long comment is a step of its argument, not a call', () => {
  const argument = 'People keep saying the market will tank. They said it last year too. Nobody knows anything here.';
  it('cannot post alone below active, and says why', async () => {
    const { decision, trace } = await decide(argument);
    expect(direction(decision)).toBe('skip');
    expect(trace.join('\n')).toContain('one phrase in a comment of 3 or more sentences');
    expect(direction((await decide(argument, 'active')).decision)).toBe('down');
  });
  it('stands beside another independent cue that agrees', async () => {
    const { decision, trace } = await decide(
      'The coin will tank. Funding is negative everywhere. This token is a ponzi anyway.',
    );
    expect(direction(decision), trace.join('\n')).toBe('down');
  });
  it("leaves the author's own first-person view standing", async () => {
    const { decision } = await decide('Long week. Lots of red. I am buying more.');
    expect(direction(decision)).toBe('up');
  });
  it('leaves a post about one cashtag standing', async () => {
    const { decision } = await decide('$XYZ ripping higher. Buyers everywhere. What a day.');
    expect(direction(decision)).toBe('up');
  });
  it.each([
    ['Bitcoin slides 5%. Here is why.', 2],
    ['Market update: Dow down 0.2% - Nasdaq up 0.1%', 1],
    ['St. Louis Fed index declines. U.S. data due. Co. results out.', 3],
    ['HODL. Moon soon. Never selling!', 3],
    ['Exchange hacked. See https://news.example/a.b.c for more', 2],
  ])('counts the sentences of %j as %i', (text, n) => {
    expect(sentenceCount(text)).toBe(n);
  });
});

describe('a single phrase in a first- or second-person post', () => {
  it('is talk: it posts at active only', async () => {
    const text = 'You know this coin will crash hard';
    const moderate = await decide(text);
    expect(direction(moderate.decision)).toBe('skip');
    expect(moderate.trace.join('\n')).toContain('talk in a first- or second-person post');
    expect(direction((await decide(text, 'active')).decision)).toBe('down');
  });
});

describe('words that never post alone', () => {
  it.each([
    ['Lots of FUD about the exchange today', 'a word of the debate'],
    ['Hold your BTC. Do not sell to these people', 'holding is said through losses'],
  ])('%j is weak alone', async (text, why) => {
    const { decision, trace } = await decide(text);
    expect(direction(decision), trace.join('\n')).toBe('skip');
    expect(trace.join('\n')).toContain(why);
  });
  it('holding agrees with another cue', async () => {
    const { decision, trace } = await decide('Bullish on BTC. Hold your BTC, do not sell.');
    expect(direction(decision), trace.join('\n')).toBe('up');
  });
});

describe("a move word in a comment's talk only agrees with another cue", () => {
  it.each([
    'I doubt it, the same funds are driving the rally in both markets',
    'You sound like every newbie who sold the bottom of the crash',
  ])('%j posts at no level', async (text) => {
    const { decision, trace } = await decide(text, 'active');
    expect(direction(decision), trace.join('\n')).toBe('skip');
    expect(trace.join('\n')).toContain('a move word in talk only agrees with another cue: strength');
  });
  it('still posts a move the author foretells, at active', async () => {
    const { decision, trace } = await decide('Mark my words, it will dump again', 'active');
    expect(direction(decision), trace.join('\n')).toBe('down');
  });
  it('still agrees with another cue', async () => {
    const { decision, trace } = await decide('You watch, this scam token is about to crash', 'active');
    expect(direction(decision), trace.join('\n')).toBe('down');
    expect(trace.join('\n')).not.toContain('only agrees');
  });
});
