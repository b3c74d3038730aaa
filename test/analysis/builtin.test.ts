import { describe, expect, it } from 'vitest';
import { builtinAnalyzer, readSignal } from '../../src/analysis/builtin.js';
import type { Signal, Trace } from '../../src/analysis/types.js';
import { profile, thread } from './fixtures.js';

function read(text: string, titles: string[] = [], method = profile().signal_method): { signal: Signal; trace: Trace } {
  const trace: Trace = [];
  const citations = titles.map((title) => ({ title, url: 'https://example.com' }));
  const signal = readSignal(thread(text, { citations }), profile({ signal_method: method }), trace);
  return { signal, trace };
}

// Whole headlines, as the service sends them, and the direction a careful reader would give them.
const HEADLINES: ReadonlyArray<readonly [string, 'bullish' | 'bearish' | 'none']> = [
  ['Arbitrum faces a $92M token unlock as exchange inflows keep rising', 'bearish'],
  ['Spot Bitcoin ETFs log $1.2B of net inflows, the most since March', 'bullish'],
  ['Binance halts withdrawals after a $40M exploit on its hot wallet', 'bearish'],
  ['Withdrawals are no longer halted and users are moving coins off exchanges', 'bullish'],
  ['Whale sends 8,000 BTC to Coinbase as the Fear & Greed index hits extreme greed', 'bearish'],
  ['Bitcoin failed to break above $72K resistance for the third time', 'bearish'],
  ['Ether is not bearish here: support holds at $3,000', 'bullish'],
  ['SEC charges the exchange; its token is delisted from Coinbase', 'bearish'],
  ['CPI cooler than expected, markets now price in rate cuts', 'bullish'],
  ['Short squeeze liquidations push SOL through resistance', 'bullish'],
  ['$900M in longs liquidated as BTC breaks down below support', 'bearish'],
  ['Hack rumours denied by the team', 'none'],
  ['Bitcoin trades at $67,000 with 24h volume of $30B', 'none'],
  ['Crypto markets are flat as traders await the Fed decision', 'none'],
  ['Analysts are bullish while others stay bearish', 'none'],
  // Words that are crypto events elsewhere but not here.
  ['Bulls attack the $70K level again', 'none'],
  ['Think tanks publish a crypto report', 'none'],
  ['Add BTC to your watch list', 'none'],
  ['Live: crypto prices and charts', 'none'],
  ['Hackathon winners announced in Lisbon', 'none'],
];

describe('builtinAnalyzer', () => {
  it.each(HEADLINES)('%s → %s', (text, direction) => {
    const { strength } = read(text).signal;
    const expected = { bullish: 1, bearish: -1, none: 0 }[direction];
    expect(Math.sign(strength) || 0).toBe(expected);
  });

  it('is named builtin and returns a signal', async () => {
    expect(builtinAnalyzer.name).toBe('builtin');
    const output = await builtinAnalyzer.analyze(thread('Bitcoin breaks out'), profile(), []);
    expect(output.kind).toBe('signal');
  });

  it('sorts evidence by weight and merges repeated phrases', () => {
    const { evidence } = read('Bullish. Very bullish. Exchange hacked, funds drained.').signal;
    expect(evidence.map((e) => e.phrase)).toEqual(['hack drains funds', 'bullish tone']);
    expect(evidence[0]!.weight).toBeCloseTo(-1.5, 5);
    expect(evidence[1]!.weight).toBeCloseTo(0.6, 5);
  });

  it("weighs the agent's own method 1.25×", () => {
    const plain = read('Golden cross forms on the bitcoin chart', [], 'macro').signal;
    const own = read('Golden cross forms on the bitcoin chart', [], 'technical').signal;
    expect(own.evidence[0]!.weight).toBeCloseTo(plain.evidence[0]!.weight * 1.25, 5);
    expect(Math.abs(own.strength)).toBeGreaterThan(Math.abs(plain.strength));
  });

  it('saturates: many independent cues approach but never reach certainty', () => {
    const text =
      'Bitcoin breaks out above $70K. ETF inflows hit $1B. Whales accumulating BTC. Short squeeze on BTC. ' +
      'Golden cross on the BTC chart. Exchange outflows of BTC accelerate. Fed cuts rates by 50 bps.';
    const { strength } = read(text).signal;
    expect(strength).toBeGreaterThan(0.99);
    expect(strength).toBeLessThanOrEqual(1);
  });

  it('counts one thing said again as one cue, not as more evidence', () => {
    const once = read('Bullish on BTC').signal;
    const often = read(Array.from({ length: 40 }, () => 'Bullish on BTC').join(', ')).signal;
    expect(often.strength).toBe(once.strength);
  });

  it('reads citation titles too, once, and not when the text already says it', () => {
    const alone = read('Price update for today').signal;
    const cited = read('Price update for today', ['Whales accumulating ETH', 'whales accumulating eth']).signal;
    const repeated = read('Golden cross forms', ['Golden cross forms']).signal;
    expect(alone.evidence).toEqual([]);
    expect(cited.evidence).toEqual([{ phrase: 'whales accumulating', weight: 0.4 }]);
    expect(repeated.evidence).toHaveLength(1);
    expect(repeated.evidence[0]!.weight).toBeCloseTo(0.5, 5);
  });

  it('traces what it read, what it ignored and the strength', () => {
    const { trace } = read('$500M ETF inflows, hack rumours denied');
    expect(trace[0]).toBe('builtin: reading 2 clause(s) of text and 0 citation title(s)');
    expect(trace).toContain('builtin: "ETF inflows" → ETF inflows +0.58 (fundamental, ×1.17 for $500M)');
    expect(trace).toContain('builtin: "hack" is negated: fundamental.hack ignored');
    expect(trace).toContain('builtin: 1 piece(s) of evidence, sum +0.58 → strength +0.53');
    // One cue, however strong, is not enough for selective: it asks for two things that agree.
    expect(trace.at(-1)).toBe('builtin: one cue alone ("ETF inflows"): strength +0.53 held at +0.44');
  });

  it('says so when it finds nothing', () => {
    const { signal, trace } = read('gm');
    expect(signal).toEqual({ kind: 'signal', strength: 0, evidence: [] });
    expect(trace.at(-1)).toBe('builtin: no market phrase found');
  });

  it('is deterministic', () => {
    const text = 'Whales move 10,000 BTC to Binance; RSI overbought; ETF inflows $300M';
    expect(read(text)).toEqual(read(text));
  });
});
