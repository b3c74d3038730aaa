import { describe, expect, it } from 'vitest';
import { decide, direction } from './fixtures.js';

// The frame a phrase stands in can make a right phrase say nothing, and `analyze -v` names the frame on
// the phrase's line: a question, an explainer, a list, a hypothetical, a denial, someone else's position,
// a context clause, another asset's move, a story about it, sarcasm. Texts written for these tests.

type Case = readonly [text: string, line: string];

describe('a frame that discounts a phrase: not enough at moderate', () => {
  it.each<Case>([
    [
      'Will the SOL rally survive the weekend?',
      'builtin: "rally" → price rallying +0.17 (technical, ×0.5 question ("?"))',
    ],
    [
      'Bitcoin halving explained: why miners sell after it',
      'builtin: "miners sell" → whales selling -0.11 (onchain, ×0.25 explainer ("explained"))',
    ],
    [
      '5 altcoins that crashed 40% this week',
      'builtin: "crashed" → price sliding -0.17 (technical, ×0.5 listicle ("5 altcoins"))',
    ],
    [
      'If the SEC approves the ETF, ether could double',
      'builtin: "approves the ETF" → ETF approval +0.30 (fundamental, ×0.5 hypothetical ("If"))',
    ],
  ])('%s', async (text, line) => {
    const moderate = await decide(text);
    expect(direction(moderate.decision), moderate.trace.join('\n')).toBe('skip');
    expect(moderate.trace).toContain(line);
  });

  it('still lets a discounted phrase post at active, which covers more', async () => {
    const { decision, trace } = await decide('If the SEC approves the ETF, ether could double', 'active');
    expect(direction(decision)).toBe('up');
    expect(trace).toContain(
      'builtin: one weak cue alone ("approves the ETF": hypothetical): strength +0.29 held at +0.20',
    );
  });

  it('takes a move as given when the question asks why it happened', async () => {
    const { decision, trace } = await decide('Why is Bitcoin sliding 6% today?');
    expect(direction(decision)).toBe('down');
    expect(trace).toContain('builtin: "sliding 6%" → price falling -0.35 (technical, a move presupposed by "Why is")');
  });
});

describe('a frame that makes a phrase count nothing', () => {
  it.each<Case>([
    [
      'Exchange denies reports that it will halt ETH withdrawals',
      'builtin: "halt ETH withdrawals" is discounted: denied ("denies"): fundamental.withdrawals-halted ignored',
    ],
    [
      'My bearish friend finally bought some bitcoin',
      'builtin: "bearish" is discounted: someone else\'s position ("friend"): sentiment.bearish-word ignored',
    ],
    [
      'Police arrest a phishing ring that targeted crypto holders',
      'builtin: "arrest" is discounted: happened to someone else ("ring"): macro.lawsuit ignored',
    ],
    [
      'A movie about the bitcoin crash wins an award',
      'builtin: "crash" is discounted: the subject of a story ("movie about the bitcoin"): technical.price-down ignored',
    ],
    [
      'Great, another exchange hack. Totally fine',
      'builtin: "hack" is discounted: sarcasm ("Totally fine"): fundamental.hack ignored',
    ],
    [
      'Some analysts are bullish on ETH while others expect a drop',
      'builtin: "bullish" is discounted: views split ("Some analysts are bullish on ETH while others"): sentiment.bullish-word ignored',
    ],
  ])('%s', async (text, line) => {
    const { decision, trace } = await decide(text);
    expect(direction(decision), trace.join('\n')).toBe('skip');
    expect(trace).toContain(line);
  });

  it("reads another asset's move as context when the text names a coin", async () => {
    const { decision, trace } = await decide('Gold hits a record as bitcoin slips 3%');
    expect(direction(decision)).toBe('down');
    expect(trace).toContain('builtin: "hits a record" is discounted: another asset ("Gold"): market.new-high ignored');
  });

  it('weighs a context clause at half when the news comes first', async () => {
    const { decision, trace } = await decide('Exchange goes down for an hour as bitcoin surges');
    expect(direction(decision)).toBe('down');
    expect(trace).toContain('builtin: "surges" → price rallying +0.17 (technical, ×0.5 context clause ("as"))');
  });
});

describe('one weak cue is not enough at moderate', () => {
  it('holds a move word without its coin or size below moderate, and posts it at active', async () => {
    const moderate = await decide('Shipments surge across the industry');
    expect(direction(moderate.decision)).toBe('skip');
    expect(moderate.trace).toContain(
      'builtin: one weak cue alone ("surge": a move word without its coin or size): strength +0.34 held at +0.20',
    );
    expect(direction((await decide('Shipments surge across the industry', 'active')).decision)).toBe('up');
  });

  it('posts the same move word with its coin, or with a size', async () => {
    expect(direction((await decide('Bitcoin surges')).decision)).toBe('up');
    expect(direction((await decide('Prices surge 12% overnight')).decision)).toBe('up');
  });

  it('posts a view on something named, and holds a view on a day or a sector', async () => {
    const named = await decide('Fund managers turn bullish on Nvidia');
    expect(direction(named.decision)).toBe('up');
    expect(named.trace.some((line) => line.includes('weak alone'))).toBe(false);
    expect(direction((await decide('Fund managers turn bullish on Nvidia', 'selective')).decision)).toBe('skip');
    expect(direction((await decide('Fund managers turn bullish on Monday')).decision)).toBe('skip');
    expect(direction((await decide('Fund managers turn bullish on healthcare')).decision)).toBe('skip');
  });

  it('reads the shares, not the costs, when a metric moves beside them', async () => {
    const { decision, trace } = await decide('Power bills surge for hosting firms; Riot shares tumble');
    expect(direction(decision)).toBe('down');
    expect(trace).toContain('builtin: weak cue "surge" against a cue that stands alone: ×0.25');
  });

  it('reads news told first and a teaser after it as news: "Here\'s why"', async () => {
    const teaser = await decide("Bitcoin slides 6% after the Fed minutes. Here's what traders are watching");
    expect(direction(teaser.decision)).toBe('down');
    expect(teaser.trace.some((line) => line.includes('explainer'))).toBe(false);
    // The same words leading the text make it an explainer.
    const guide = await decide("Here's what happens when bitcoin slides 6% in a day");
    expect(guide.trace.some((line) => line.includes('×0.25 explainer'))).toBe(true);
    expect(direction(guide.decision)).toBe('skip');
  });

  it('reads the move before "after" as the news, across a comma too', async () => {
    const { decision, trace } = await decide('SOL bounces 3% premarket, after it plunged 14% on Tuesday');
    expect(direction(decision)).toBe('up');
    expect(trace).toContain('builtin: "plunged" → price sliding -0.17 (technical, ×0.5 context clause ("after"))');
    expect(trace).toContain('builtin: weak cue "plunged" against a cue that stands alone: ×0.25');
  });

  it("reads an event in a text that names no coin as someone else's", async () => {
    const { decision, trace } = await decide('Retailer hit by a lawsuit over its loyalty program');
    expect(direction(decision)).toBe('skip');
    expect(trace).toContain(
      'builtin: "lawsuit" → lawsuit/regulatory charges -0.55 (macro, weak alone: no coin named: someone else\'s event)',
    );
  });

  it('asks selective for two independent cues that agree', async () => {
    const one = 'Bitcoin breaks out above $70K';
    const two = 'Bitcoin breaks out above $70K as ETF inflows hit $1B';
    expect(direction((await decide(one, 'moderate')).decision)).toBe('up');
    expect(direction((await decide(one, 'selective')).decision)).toBe('skip');
    const both = await decide(two, 'selective');
    expect(direction(both.decision)).toBe('up');
    expect(both.trace).toContain('builtin: 2 independent cues agree');
  });

  it('does not count two phrases in one question as corroboration', async () => {
    const { decision, trace } = await decide('Will the bitcoin rally and the ETF inflows last?');
    expect(direction(decision)).toBe('skip');
    expect(trace.some((l) => l.includes('held at +0.20'))).toBe(true);
  });
});

describe("the author's own stance", () => {
  it.each([
    ["Everyone's long ETH, I'm shorting", 'down'],
    ['Everyone is bearish on $SOL. That is exactly why I am buying', 'up'],
    ['Oversold bounce on BTC. Fade it.', 'down'],
  ] as const)('%s → %s', async (text, want) => {
    const { decision, trace } = await decide(text);
    expect(direction(decision), trace.join('\n')).toBe(want);
  });

  it('discounts what the text describes against it, and says so', async () => {
    const { trace } = await decide('Oversold bounce on BTC. Fade it.');
    expect(trace).toContain(
      'builtin: "bounce" → price rising +0.09 (technical, ×0.25 the author\'s own stance is the other way)',
    );
  });

  it("ignores a holding stance that is someone else's plan", async () => {
    const { decision, trace } = await decide('The founder says he will never sell, whatever the price');
    expect(direction(decision)).toBe('skip');
    expect(trace).toContain(
      'builtin: "never sell" is someone else\'s position ("he"), not the author\'s: social.holding ignored',
    );
  });
});

describe('supply events without a sign', () => {
  it('does not post on a burn or a buyback alone', async () => {
    for (const text of ['BNB completes its quarterly token burn', 'Protocol announces a $40M token buyback']) {
      const { decision, trace } = await decide(text, 'active');
      expect(direction(decision), trace.join('\n')).toBe('skip');
      expect(trace.some((l) => l.includes('is a supply event without a sign: supply.burn-buyback ignored'))).toBe(true);
    }
  });

  it('reads the sign the text gives it', async () => {
    const { decision } = await decide('Token jumps 20% after the DAO votes to burn half its supply');
    expect(direction(decision)).toBe('up');
  });
});
