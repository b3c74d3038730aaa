import { describe, expect, it } from 'vitest';
import { analyzeThread, builtinAnalyzer } from '../../src/analysis/index.js';
import type { Participation } from '../../src/domain/profile.js';
import { profile, thread } from './fixtures.js';

// The rule families the built-in analyzer reads since issue #13: regulation and law, companies and
// funding, exchanges and custody, fraud, market talk. Each case is a whole decision at the profile the
// corpus is scored with (sentiment / moderate / neutral / moderate) and the trace line that names the
// evidence. Headlines written for these tests, not taken from the corpus.

type Case = readonly [text: string, direction: 'up' | 'down' | 'skip', line: string];

async function decide(text: string, participation: Participation = 'moderate') {
  return analyzeThread(
    builtinAnalyzer,
    thread(text, { timestamp: '2025-03-01T12:00:00Z' }),
    profile({ signal_method: 'sentiment', participation }),
  );
}

async function check([text, direction, line]: Case): Promise<void> {
  const { decision, trace } = await decide(text);
  const got = decision.action === 'skip' ? 'skip' : decision.conviction > 0 ? 'up' : 'down';
  expect(got, trace.join('\n')).toBe(direction);
  expect(trace).toContain(line);
}

describe('regulation and law', () => {
  it.each<Case>([
    [
      'SEC approves the first staking ETF for US investors',
      'up',
      'builtin: "approves the first staking ETF" → ETF approval +0.60 (fundamental)',
    ],
    [
      'Regulator rejects application for a bitcoin savings product',
      'down',
      'builtin: "rejects application" → regulator says no -0.55 (macro)',
    ],
    [
      'SEC again postpones its decision on the Cardano fund',
      'down',
      'builtin: "postpones its decision" → regulatory decision delayed -0.35 (macro)',
    ],
    [
      'Judge throws out the SEC case against the wallet developer',
      'up',
      'builtin: "Judge throws out the SEC case" → court rules for crypto +0.50 (macro)',
    ],
    [
      'Tax office orders exchanges to report every customer trade',
      'down',
      'builtin: "orders exchanges to report" → stricter rules -0.40 (macro)',
    ],
    [
      'Regulators drop their probe into the exchange',
      'up',
      'builtin: "drop their probe" → legal case dropped +0.50 (macro)',
    ],
  ])('%s → %s', async (...c) => check(c));
});

describe('companies and funding', () => {
  it.each<Case>([
    [
      'Layer-2 network Arbitrum raises $30M in a Series A',
      'up',
      'builtin: "raises $30M in a Series" → funding raised +0.37 (fundamental, ×1.05 for $30M)',
    ],
    // A round of a firm whose coin, if any, is not named is the firm's news: alone, it posts at active only.
    [
      'Layer-2 startup raises $30M in a Series A',
      'skip',
      'builtin: "raises $30M in a Series" → funding raised +0.37 (fundamental, weak alone: a funding round of a firm, no coin named, ×1.05 for $30M)',
    ],
    [
      'Regional bank cuts ties with two crypto exchanges',
      'down',
      'builtin: "cuts ties" → firm pulls back from crypto -0.45 (fundamental)',
    ],
    [
      'Listed miner sells 2,000 BTC to pay down loans',
      'down',
      'builtin: "sells 2,000 BTC" → treasury selling -0.55 (fundamental, ×1.10 for 2,000 BTC)',
    ],
    // Partnerships are announced daily and move little: alone, one is below the moderate threshold.
    [
      'Partners with a payments firm for loyalty points',
      'skip',
      'builtin: "Partners with" → new partnership +0.15 (fundamental, weak alone: no coin named: someone else\'s event)',
    ],
  ])('%s → %s', async (...c) => check(c));
});

describe('exchanges and custody', () => {
  it.each<Case>([
    [
      'Exchange suspends deposits of the token after a bridge bug',
      'down',
      'builtin: "suspends deposits" → trading or deposits halted -0.55 (fundamental)',
    ],
    [
      'Users say they cannot withdraw funds from the crypto app',
      'down',
      'builtin: "cannot withdraw funds" → customers cannot withdraw -0.55 (fundamental)',
    ],
    [
      "The crypto lender's estate begins repaying creditors in full",
      'up',
      'builtin: "repaying creditors" → customers repaid +0.40 (fundamental)',
    ],
    [
      'Bybit resumes withdrawals after a six-hour pause',
      'up',
      'builtin: "resumes withdrawals after a six-hour pause" → withdrawals resumed +0.30 (fundamental)',
    ],
  ])('%s → %s', async (...c) => check(c));
});

describe('fraud', () => {
  it.each<Case>([
    [
      'Investigators call the crypto trading app a Ponzi scheme',
      'down',
      'builtin: "Ponzi scheme" → fraud alleged -0.55 (fundamental)',
    ],
    [
      'Jury acquits the Tornado Cash developer of all charges',
      'up',
      'builtin: "acquits the Tornado Cash developer of all charges" → cleared of charges +0.50 (fundamental)',
    ],
  ])('%s → %s', async (...c) => check(c));
});

describe('market talk', () => {
  it.each<Case>([
    ['SOL slides 9% as the memecoin frenzy cools', 'down', 'builtin: "slides 9%" → price falling -0.35 (technical)'],
    ['ETH hits a six-month high above $4,000', 'up', 'builtin: "six-month high" → new high +0.40 (technical)'],
    [
      'Selling pressure eases as long-term holders stop selling',
      'up',
      'builtin: "Selling pressure eases" → selling pressure easing +0.40 (technical)',
    ],
    [
      'Shorting ETH here, the chart looks ugly',
      'down',
      'builtin: "Shorting" → traders turning short -0.44 (sentiment, the author\'s own, subject left out, ×1.25 own method)',
    ],
    // A move word with an object is not a move of the price.
    ['The team dropped it from the roadmap', 'skip', 'builtin: no market phrase found'],
  ])('%s → %s', async (...c) => check(c));

  it('posts more at active than at moderate, and only the strongest at selective', async () => {
    const weak = 'ETH climbs 2% in quiet trade';
    expect((await decide(weak, 'selective')).decision.action).toBe('skip');
    expect((await decide(weak, 'moderate')).decision.action).toBe('post');
    const faint = 'Polygon partners with a fashion label';
    expect((await decide(faint, 'moderate')).decision.action).toBe('skip');
    expect((await decide(faint, 'active')).decision.action).toBe('post');
  });
});
