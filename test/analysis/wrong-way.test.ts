import { describe, expect, it } from 'vitest';
import { sentenceCount } from '../../src/analysis/read-text.js';
import { decide, direction, expectReading } from './fixtures.js';

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
  ])('%j is weak alone', (text, why) => expectReading(text, 'skip', why));
  it('holding agrees with another cue', async () => {
    const { decision, trace } = await decide('Bullish on BTC. Hold your BTC, do not sell.');
    expect(direction(decision), trace.join('\n')).toBe('up');
  });
});

describe("a move word in a comment's talk only agrees with another cue", () => {
  it.each([
    'I doubt it, the same funds are driving the rally in both markets',
    'You sound like every newbie who sold the bottom of the crash',
  ])('%j posts at no level', (text) =>
    expectReading(text, 'skip', 'a move word in talk only agrees with another cue: strength', 'active'),
  );
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

describe("neutral company news: a firm's funding round is not a coin's news", () => {
  it.each([
    'Crypto startup raises $3M seed round led by angel investors',
    'Blockchain analytics firm closes a $20 million Series A',
    'Web3 studio secures $150M in funding at a $1 billion valuation',
  ])('holds a funding round that names no coin weak alone: %j', async (text) => {
    const { decision, trace } = await decide(text);
    expect(direction(decision), trace.join('\n')).toBe('skip');
    expect(trace.join('\n')).toContain('a funding round of a firm, no coin named');
    expect(direction((await decide(text, 'active')).decision)).toBe('up');
  });

  it('lets a round that names the coin stand, and a weak round agree with another cue', async () => {
    expect(direction((await decide('Layer-2 network Arbitrum raises $60M Series B')).decision)).toBe('up');
    const { decision, trace } = await decide('Crypto startup raises $3M seed round as bitcoin rallies 5%');
    expect(direction(decision), trace.join('\n')).toBe('up');
  });

  it.each([
    ['Pros and cons of holding ether', 'skip'],
    ['Guide: how to stake ETH', 'skip'],
    ['Wallet startup launches a new app for phones', 'skip'],
    ['Exchange announces a partnership with a payments firm', 'up'],
  ])('posts no launch, explainer or guide, and a partnership at active only: %j', async (text, atActive) => {
    expect(direction((await decide(text)).decision)).toBe('skip');
    expect(direction((await decide(text, 'active')).decision)).toBe(atActive);
  });
});

describe('undoing an adoption is the negative, and a call for it counts less than a decision', () => {
  it.each([
    ['Island nation scraps bitcoin as legal tender', 'adoption reversed'],
    ["Parliament votes to repeal bitcoin's legal tender status", 'adoption reversed'],
    ['Coastal state no longer treats bitcoin as legal tender', 'adoption reversed'],
    ['Grocery chain to roll back crypto payments after a quiet year', 'adoption reversed'],
  ])('reads undoing an adoption as the negative: %j', async (text, line) => {
    const { decision, trace } = await decide(text);
    expect(direction(decision), trace.join('\n')).toBe('down');
    expect(trace.join('\n')).toContain(line);
    expect(trace.join('\n')).not.toContain('crypto adopted');
  });

  it.each([
    ['Lawmakers urge the island nation to remove bitcoin as legal tender', 'down', 'a call or a proposal ("urge")'],
    ['Fund calls on the country to drop bitcoin as legal tender', 'down', 'a call or a proposal ("calls on")'],
    ['Opposition proposes to reverse its bitcoin law', 'down', 'a call or a proposal ("proposes")'],
    ['Senator proposes a ban on crypto mining', 'down', 'a call or a proposal ("proposes")'],
    ['Deputy proposes a bill to make bitcoin legal tender', 'up', 'a call or a proposal ("proposes")'],
  ])('counts a call or a proposal less than a decision: %j posts at active only', async (text, sign, line) => {
    const moderate = await decide(text);
    expect(direction(moderate.decision), moderate.trace.join('\n')).toBe('skip');
    expect(moderate.trace.join('\n')).toContain(line);
    expect(direction((await decide(text, 'active')).decision)).toBe(sign);
  });

  it('still reads the decision itself', async () => {
    expect(direction((await decide('Lawmakers pass a bill banning crypto mining')).decision)).toBe('down');
    expect(direction((await decide('Island nation adopts bitcoin as legal tender')).decision)).toBe('up');
  });
});

describe('creditors repaid in coins, and what a false claim says, count nothing', () => {
  it.each([
    ['Mt. Gox repayments begin, 140,000 BTC to be distributed', '("140,000 BTC")'],
    ['Defunct lender starts repaying creditors in bitcoin and ether', '("in bitcoin")'],
    ['Exchange estate makes first distributions in kind to its users', '("in kind")'],
  ])('reads creditors repaid in coins as nothing: %j', (text, cue) =>
    expectReading(text, 'skip', `repaid in coins creditors may sell ${cue}`, 'active'),
  );

  it('still reads a repayment in cash as customers repaid', async () => {
    const { decision, trace } = await decide('FTX to start repaying customers in cash next month');
    expect(direction(decision), trace.join('\n')).toBe('up');
  });

  it.each([
    ['Influencer falsely claims a retailer accepts bitcoin', 'denied ("falsely claims")'],
    ['Fake report that a supermarket accepts dogecoin spreads online', 'denied ("Fake report")'],
    ['Hoax: a carmaker does not accept dogecoin after all', 'denied ("Hoax")'],
    ['Hacked regulator X account falsely announces a bitcoin ETF approval', 'is an idiom: idiom.hack'],
  ])('counts a false claim nothing: %j', (text, line) => expectReading(text, 'skip', line, 'active'));

  it('reads a scam that makes the false claim as the claimant, not the coin', async () => {
    const { decision, trace } = await decide('Scam site falsely claims a retailer accepts dogecoin', 'active');
    expect(direction(decision), trace.join('\n')).toBe('skip');
    expect(trace.join('\n')).toContain('the author of a false claim ("falsely claims")');
  });

  it('still reads a charge of a false claim as a charge', async () => {
    const text = 'SEC charges exchange with falsely claiming its reserves were fully backed';
    const { decision, trace } = await decide(text);
    expect(direction(decision), trace.join('\n')).toBe('down');
    expect(trace.join('\n')).toContain('denied ("falsely claiming")');
  });
});
