import { describe, expect, it } from 'vitest';
import { analyzeThread, builtinAnalyzer, type Decision } from '../../src/analysis/index.js';
import { readClauses } from '../../src/analysis/read-text.js';
import type { Participation } from '../../src/domain/profile.js';
import { profile, thread } from './fixtures.js';

// How the built-in analyzer reads around a phrase: what a sentence concedes, what it lacks, what it
// recalls from the past, which stance it reports as held before, what it quotes to reject or to name,
// and which loaded words are idioms. Each case is a whole decision (analyzer and policy, as `agent
// analyze` makes it) and the trace line that explains it.

async function decide(text: string, options: { participation?: Participation; timestamp?: string } = {}) {
  const { participation = 'moderate', timestamp = '2025-03-01T12:00:00Z' } = options;
  const p = profile({ signal_method: 'sentiment', participation });
  return analyzeThread(builtinAnalyzer, thread(text, { timestamp }), p);
}

function direction(decision: Decision): 'up' | 'down' | 'skip' {
  if (decision.action === 'skip') return 'skip';
  return decision.conviction > 0 ? 'up' : 'down';
}

describe('contrast: "X but Y" weighs Y', () => {
  it('concedes what comes before "but"', async () => {
    const { decision, trace } = await decide('Whales sold early in the week, but ETF inflows hit $1B on Friday');
    expect(direction(decision)).toBe('up');
    expect(trace).toContain('builtin: "Whales sold" → whales selling -0.11 (onchain, ×0.25 conceded before "but")');
  });

  it('concedes what follows "despite", wherever it stands', async () => {
    const first = await decide('Despite the exchange hack, Bitcoin breaks out above $70K');
    expect(direction(first.decision)).toBe('up');
    expect(first.trace).toContain(
      'builtin: "hack" → hack drains funds -0.19 (fundamental, ×0.25 conceded after "despite")',
    );
    const last = await decide('ETH breaks down below support despite ETF inflows');
    expect(direction(last.decision)).toBe('down');
    expect(last.trace).toContain(
      'builtin: "ETF inflows" → ETF inflows +0.13 (fundamental, ×0.25 conceded after "despite")',
    );
  });

  it('concedes the sentence before one that opens with "However"', () => {
    expect(readClauses('Miners sold. However, whales bought the dip.')).toEqual([
      { text: 'Miners sold.', conceded: 'before "however"' },
      { text: 'whales bought the dip.' },
    ]);
  });

  it('leaves "while" and "not only … but also" as they are: both halves count', () => {
    expect(readClauses('BTC rallies while ETH lags')).toEqual([{ text: 'BTC rallies' }, { text: 'ETH lags' }]);
    expect(readClauses('not only whales but also funds are buying')).toEqual([
      { text: 'not only whales but also funds are buying' },
    ]);
  });
});

describe('negation by lack and need', () => {
  it('reads an approval still awaited as a delay', async () => {
    const { decision, trace } = await decide('Spot XRP ETF still awaiting approval');
    expect(direction(decision)).toBe('down');
    expect(trace).toContain(
      'builtin: "ETF still awaiting approval" → ETF approval still pending -0.30 (fundamental, lacking: "still awaiting")',
    );
  });

  it('reads lacking clarity as no clarity', async () => {
    const { decision, trace } = await decide('US exchanges are lacking regulatory clarity');
    expect(direction(decision)).toBe('down');
    expect(trace).toContain('builtin: "regulatory clarity" → no regulatory clarity -0.35 (macro, lacking: "lacking")');
  });

  it('reads a need as nothing yet, not as its opposite', async () => {
    const { decision, trace } = await decide('Bitcoin needs to break above $70K');
    expect(direction(decision)).toBe('skip');
    expect(trace).toContain('builtin: "break above" is lacking ("needs to"): technical.breakout ignored');
  });

  it('reads a request as nothing', async () => {
    const { decision, trace } = await decide('The issuer is seeking approval for its stablecoin');
    expect(direction(decision)).toBe('skip');
    expect(trace).toContain('builtin: "approval" is only sought ("seeking"): regulation.approval ignored');
  });
});

describe('recalled incidents', () => {
  it('ignores an incident dated before the thread', async () => {
    const { decision, trace } = await decide('Ronin, hacked in 2022, sees ETF inflows of $400M');
    expect(direction(decision)).toBe('up');
    expect(trace).toContain('builtin: "hacked" recalls a past event ("2022"): fundamental.hack ignored');
  });

  it('reads the same year as news in a thread written that year', async () => {
    const { trace } = await decide('Ronin, hacked in 2022, sees ETF inflows of $400M', {
      timestamp: '2022-03-29T12:00:00Z',
    });
    expect(trace).toContain('builtin: "hacked" → hack drains funds -0.75 (fundamental)');
  });

  it('knows recall words without a date', async () => {
    const { decision, trace } = await decide('Two years after its hack, the exchange reopens');
    expect(direction(decision)).toBe('skip');
    expect(trace).toContain('builtin: "hack" recalls a past event ("Two years after"): fundamental.hack ignored');
  });

  it('reads "in the past hour" as now, and "in the past" alone as a recall', async () => {
    const recent = await decide('$40M of ETH shorts were liquidated in the past hour');
    expect(direction(recent.decision)).toBe('up');
    const sessions = await decide('SOL is headed for its 9th decline in the past 11 sessions');
    expect(direction(sessions.decision)).toBe('down');
    const old = await decide('ETH shorts were liquidated in the past, and the desk remembers');
    expect(old.trace.some((line) => line.includes('recalls a past event ("in the past")'))).toBe(true);
  });

  it('does not take a comparison for a recall', async () => {
    const { decision } = await decide('Whales accumulating at the fastest pace since 2021');
    expect(direction(decision)).toBe('up');
  });
});

describe('past stances', () => {
  it('ignores a stance held before', async () => {
    const { decision, trace } = await decide('Analysts were bullish last year; the market is flat now');
    expect(direction(decision)).toBe('skip');
    expect(trace).toContain(
      'builtin: "bullish" is a stance held in the past ("last year"): sentiment.bullish-word ignored',
    );
    expect(trace).toContain('builtin: no evidence left: 1 phrase(s) found, none counts here');
  });

  it('reads "was" as past only when the text says things changed since', async () => {
    const changed = await decide('I was bearish on ETH; not anymore');
    expect(changed.trace).toContain(
      'builtin: "bearish" is a stance held in the past ("was"): sentiment.bearish-word ignored',
    );
    const reported = await decide('Traders were bearish on bitcoin into the close');
    expect(direction(reported.decision)).toBe('down');
  });
});

describe('quoted words', () => {
  it('turns a word quoted to reject it', async () => {
    const { decision, trace } = await decide('Calling this bitcoin move a "breakout" is a stretch');
    expect(direction(decision)).toBe('down');
    expect(trace).toContain(
      'builtin: "breakout" → failed breakout -0.27 (technical, quoted to reject it: "Calling this")',
    );
  });

  it('drops a so-called positive that has no opposite', async () => {
    const { decision, trace } = await decide('This so-called golden cross means nothing');
    expect(direction(decision)).toBe('skip');
    expect(trace).toContain(
      'builtin: "golden cross" is quoted to reject it ("so-called"): technical.golden-cross ignored',
    );
  });

  it('ignores a quote pinned on someone to mock them', async () => {
    const { decision, trace } = await decide('"Solana will crash to zero" says the guy who bought ADA at $3 lol');
    expect(direction(decision)).toBe('skip');
    expect(trace).toContain(
      'builtin: "crash" is quoted as someone else\'s words, to mock them ("says the guy who"): technical.price-down ignored',
    );
    const everyone = await decide('"this coin is a scam," said everyone who sold the bottom');
    expect(direction(everyone.decision)).toBe('skip');
    expect(everyone.trace.join('\n')).toContain('to mock them ("said everyone")');
  });

  it('reads a quote whose speaker is only named', async () => {
    const { trace } = await decide('"We have halted all withdrawals," says the guy at the exchange');
    expect(trace.join('\n')).toContain('"halted all withdrawals" → withdrawals halted');
  });

  it('ignores a word that is only named', async () => {
    const { decision, trace } = await decide('The word "bullish" has lost its meaning');
    expect(direction(decision)).toBe('skip');
    expect(trace).toContain(
      'builtin: "bullish" is quoted as a word, not used ("The word"): sentiment.bullish-word ignored',
    );
  });

  it('still reads a plain quotation', async () => {
    const { decision } = await decide('CEO says "we are bullish on bitcoin"');
    expect(direction(decision)).toBe('up');
  });
});

describe('idioms, background mentions and advice', () => {
  it.each([
    ['Bear in mind the crash course starts Monday', 'builtin: "crash course" is an idiom: idiom.crash ignored'],
    ['Ten life hacks for your crypto taxes', 'builtin: "life hacks" is an idiom: idiom.hack ignored'],
    [
      "The bankrupt exchange's customers get an email",
      'builtin: "The bankrupt exchange\'s" names a past event as background: background.failed-firm ignored',
    ],
    ['Our weekly portfolio breakdown is up', 'builtin: "portfolio breakdown" is an idiom: idiom.breakdown ignored'],
    ['The artist drops a new album on bitcoin', 'builtin: "drops a new album" is an idiom: idiom.drop ignored'],
    ['Bitcoin miners fall short of their hashrate goal', 'builtin: "fall short" is an idiom: idiom.fall-short ignored'],
    [
      'How to spot a rug pull before it happens',
      'builtin: "How to spot a rug pull" is advice, not news: advice.scam ignored',
    ],
  ])('%s', async (text, line) => {
    const { decision, trace } = await decide(text);
    expect(direction(decision)).toBe('skip');
    expect(trace).toContain(line);
  });

  it('still reads the market word next to an idiom', async () => {
    const { decision, trace } = await decide('Bear in mind that ETF inflows hit $1B today');
    expect(direction(decision)).toBe('up');
    expect(trace).toContain('builtin: "Bear in mind" is an idiom: idiom.bear ignored');
  });
});
