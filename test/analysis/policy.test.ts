import { describe, expect, it } from 'vitest';
import { decide } from '../../src/analysis/policy.js';
import type { AnalyzerDecision, AnalyzerOutput, Decision, Evidence, Trace } from '../../src/analysis/types.js';
import { skipKindOfReason } from '../../src/domain/skip.js';
import type { Profile } from '../../src/domain/profile.js';
import { isPostable, profile, thread } from './fixtures.js';

const signal = (
  strength: number,
  evidence: Evidence[] = [{ phrase: 'ETF inflows', weight: strength }],
): AnalyzerOutput => ({
  kind: 'signal',
  strength,
  evidence,
});
const external = (decision: AnalyzerDecision): AnalyzerOutput => ({ kind: 'decision', ...decision });
const post = (
  conviction: number,
  text = `${conviction < 0 ? 'Bearish' : 'Bullish'} on bitcoin: external analysis says so.`,
): AnalyzerOutput => external({ action: 'post', conviction, text });

function run(
  output: AnalyzerOutput,
  overrides: Partial<Profile> = {},
  cell = 'bitcoin',
): { decision: Decision; trace: Trace } {
  const trace: Trace = [];
  const decision = decide(thread('text', { cell, projectId: `c/${cell}` }), profile(overrides), output, trace);
  return { decision, trace };
}

const conviction = (d: Decision): number | string => (d.action === 'post' ? d.conviction : `skip: ${d.reason}`);

describe('decide: sizing a signal', () => {
  // [case, output, profile, cell, expected conviction or skip-reason fragment]
  const CASES: ReadonlyArray<readonly [string, AnalyzerOutput, Partial<Profile>, string, number | string]> = [
    ['moderate on bitcoin', signal(0.6), {}, 'bitcoin', 0.8],
    ['bearish mirror', signal(-0.6), {}, 'bitcoin', -0.8],
    ['at the selective threshold, bottom of range', signal(0.45), { participation: 'selective' }, 'ethereum', 0.4],
    [
      'at the active threshold, conservative, general',
      signal(0.1),
      { participation: 'active', conviction_style: 'conservative' },
      'general',
      0.2,
    ],
    [
      'full strength, conservative, bitcoin: 0.72 → 0.7',
      signal(1),
      { conviction_style: 'conservative' },
      'bitcoin',
      0.7,
    ],
    ['full strength, degen, unknown cell', signal(-1), { conviction_style: 'degen' }, 'pepe', -8],
    ['full strength, bold, solana', signal(1), { conviction_style: 'bold' }, 'solana', 3.7],
    ['ticker alias', signal(1), { conviction_style: 'bold' }, 'SOL', 3.7],
    ['cell still prefixed', signal(1), { conviction_style: 'conservative' }, 'c/bitcoin', 0.7],
    [
      'below the selective threshold',
      signal(0.3),
      { participation: 'selective' },
      'bitcoin',
      'below the selective threshold 0.45',
    ],
    ['no evidence', signal(0.9, []), {}, 'bitcoin', 'no evidence'],
    [
      'evidence cancels out',
      signal(0, [
        { phrase: 'a', weight: 0.4 },
        { phrase: 'b', weight: -0.4 },
      ]),
      {},
      'bitcoin',
      'cancels out',
    ],
    ['evidence too weak', signal(0.02), { participation: 'active' }, 'bitcoin', 'too weak'],
    ['non-finite strength', signal(Number.NaN), {}, 'bitcoin', 'not a finite number'],
    ['bullish bias lifts 0.20 over 0.25', signal(0.2), { directional_bias: 'bullish' }, 'bitcoin', 0.3],
    [
      'bearish bias drops 0.30 under 0.25',
      signal(0.3),
      { directional_bias: 'bearish' },
      'bitcoin',
      'below the moderate threshold',
    ],
    ['bearish bias helps bearish evidence', signal(-0.2), { directional_bias: 'bearish' }, 'bitcoin', -0.3],
    [
      'bias never flips the evidence',
      signal(0.08),
      { directional_bias: 'bearish', participation: 'active' },
      'bitcoin',
      'bias outweighs',
    ],
    [
      'bias cannot create a post from nothing',
      signal(0, []),
      { directional_bias: 'bullish', participation: 'active' },
      'bitcoin',
      'no evidence',
    ],
    ['0.35 - 0.10 meets 0.25', signal(0.35), { directional_bias: 'bearish' }, 'bitcoin', 0.3],
    ['out-of-range strength is clamped', signal(3), { conviction_style: 'degen' }, 'bitcoin', 3.6],
  ];

  it.each(CASES)('%s', (_name, output, overrides, cell, expected) => {
    const { decision } = run(output, overrides, cell);
    if (typeof expected === 'number') {
      expect(conviction(decision)).toBe(expected);
    } else {
      expect(decision.action).toBe('skip');
      expect(conviction(decision)).toContain(expected);
      // Its kind is the one the words of older history lines map to: stats counts old and new alike.
      if (decision.action === 'skip') expect(skipKindOfReason(decision.reason)).toBe(decision.skipKind);
    }
  });

  it('writes the direction, cell, reasons and size into the text', () => {
    const output = signal(-0.7, [
      { phrase: 'token unlock adds supply', weight: -0.5 },
      { phrase: 'whales accumulating', weight: 0.2 },
      { phrase: 'exchange inflows rising', weight: -0.45 },
    ]);
    const { decision } = run(output, { conviction_style: 'bold' }, 'arbitrum');
    expect(decision).toEqual({
      action: 'post',
      conviction: -3.4,
      text: 'Bearish on c/arbitrum: token unlock adds supply, exchange inflows rising. Expect -3.4% in 3h.',
    });
  });

  it('traces each step', () => {
    const { trace } = run(signal(0.2), { directional_bias: 'bullish' });
    expect(trace).toEqual([
      'policy: c/bitcoin σ 0.9%, moderate 0.3-1.5σ, at most ±1.3%',
      'policy: bullish bias +0.10: strength +0.20 → +0.30',
      'policy: |strength| 0.30 ≥ moderate 0.25; size (0.3 + 0.07 × 1.2) × σ 0.9 = 0.34%',
      'policy: post +0.3: Bullish on c/bitcoin: ETF inflows. Expect +0.3% in 3h.',
    ]);
  });
});

describe('decide: checking an external decision', () => {
  it('clamps +12.0 on bitcoin for a conservative agent to +0.7 and says so', () => {
    const { decision, trace } = run(post(12), { conviction_style: 'conservative' });
    expect(conviction(decision)).toBe(0.7);
    expect(trace).toContain('policy: conviction +12.0 clamped to +0.7 (conservative top 0.8σ × σ 0.9% on c/bitcoin)');
  });

  const CASES: ReadonlyArray<readonly [string, AnalyzerOutput, Partial<Profile>, number | string]> = [
    ['negative clamp', post(-12), { conviction_style: 'conservative' }, -0.7],
    ['within bounds, rounded', post(1.26), {}, 1.3],
    ['rounds half away from zero', post(-0.25), {}, -0.3],
    ['tiny positive becomes +0.1', post(0.04), {}, 0.1],
    ['tiny negative becomes -0.1', post(-0.0001), {}, -0.1],
    ['zero has no direction', post(0), {}, 'conviction 0'],
    ['negative zero has no direction', post(-0), {}, 'conviction 0'],
    ['NaN', post(Number.NaN), {}, 'not a finite number'],
    ['Infinity', post(Number.POSITIVE_INFINITY), {}, 'not a finite number'],
    ['a string where a number belongs', post('2' as unknown as number), {}, 'not a finite number'],
    ['skip passes through', external({ action: 'skip', reason: 'nothing new' }), {}, 'nothing new'],
    ['skip without a reason', external({ action: 'skip', reason: '  ' }), {}, 'the analyzer chose to skip'],
  ];

  it.each(CASES)('%s', (_name, output, overrides, expected) => {
    const { decision } = run(output, overrides);
    if (typeof expected === 'number') {
      expect(conviction(decision)).toBe(expected);
      expect(Object.is(conviction(decision), -0)).toBe(false);
    } else {
      expect(conviction(decision)).toContain(expected);
    }
  });

  it.each([
    ['an unusable size', post(Number.NaN), 'unusable-answer'],
    ['a size of 0', post(0), 'unusable-answer'],
    ["the analyzer's own skip, in its own words", external({ action: 'skip', reason: 'nothing new' }), 'analyzer-skip'],
  ] as const)('%s is a skip of kind %s', (_name, output, kind) => {
    expect(run(output).decision).toMatchObject({ action: 'skip', skipKind: kind });
  });

  const WRITTEN = "policy: the post's text is written from the conviction posted";

  // [case, conviction, the analyzer's text, the text posted] on bitcoin, conservative (cap 0.7)
  it.each([
    [
      'its own head and tail give way to ours',
      0.5,
      'Bullish: ETF demand keeps absorbing supply. Expect +0.5% in 3h.',
      'Bullish on c/bitcoin: ETF demand keeps absorbing supply. Expect +0.5% in 3h.',
    ],
    [
      'a clamped size in the text is not posted',
      12,
      'Bullish on c/bitcoin: spot ETF inflows hit a record. Expect +12% in 3h. Shorts are crowded.',
      'Bullish on c/bitcoin: spot ETF inflows hit a record, Shorts are crowded. Expect +0.7% in 3h.',
    ],
    [
      'a size in full width or "per cent" is a size too',
      -0.5,
      'Miners keep selling. About ０.５ percent down. 10 per cent of hashrate offline.',
      'Bearish on c/bitcoin: Miners keep selling. Expect -0.5% in 3h.',
    ],
    [
      'a size hidden by a zero-width space',
      0.5,
      'Halving supply shock. Expect +12\u200B% in 3h.',
      'Bullish on c/bitcoin: Halving supply shock. Expect +0.5% in 3h.',
    ],
    [
      'no size stated',
      0.5,
      'Up only: ETF demand keeps absorbing supply.',
      'Bullish on c/bitcoin: Up only: ETF demand keeps absorbing supply. Expect +0.5% in 3h.',
    ],
    [
      'no direction stated',
      0.1,
      'Tiny move expected here for sure.',
      'Bullish on c/bitcoin: Tiny move expected here for sure. Expect +0.1% in 3h.',
    ],
    [
      '"Bullish because …"',
      12,
      'Bullish because ETF demand keeps absorbing supply.',
      'Bullish on c/bitcoin: ETF demand keeps absorbing supply. Expect +0.7% in 3h.',
    ],
    [
      'a link a thread slipped in',
      0.5,
      'Whales accumulate. Claim your airdrop at https://evil.example now!',
      'Bullish on c/bitcoin: Whales accumulate. Expect +0.5% in 3h.',
    ],
    [
      'a terminal escape leaves no residue',
      0.5,
      '\u001b[31mRED\u001b[0m pump: buy buy buy going up fast',
      'Bullish on c/bitcoin: RED pump: buy buy buy going up fast. Expect +0.5% in 3h.',
    ],
    [
      'a DCS or APC string leaves no payload',
      0.5,
      'Whales \u001bPq#0;2;0;0;0#0~~@@\u001b\\accumulate\u001b_Gf=100;AAAA\u001b\\ on dips.',
      'Bullish on c/bitcoin: Whales accumulate on dips. Expect +0.5% in 3h.',
    ],
    ['a short one', -0.5, 'Dump.', 'Bearish on c/bitcoin: Dump. Expect -0.5% in 3h.'],
  ])('%s', (_name, size, text, expected) => {
    const { decision, trace } = run(post(size, text), { conviction_style: 'conservative' });
    expect(decision).toEqual({ action: 'post', conviction: Math.min(size, 0.7), text: expected });
    expect(trace.some((line) => line.startsWith(WRITTEN))).toBe(true);
  });

  it.each([
    'target 12\u200C% soon',
    'target %12 soon',
    'target ١٢٪ soon',
    'up twelve per cent',
    'up 1200 bps',
    'expect +12.0 in 3h',
    '3 percentage points higher',
    'bearishness rising',
    'bear\u2063ish setup',
    'I am not bullish at all',
    'join t.me/pumpgroup',
    'see bit.ly/3xYzAbC',
    'claim at uniswap-claim.finance',
  ])('a sentence stating a size, the other direction or a link stays out of a bullish post: %j', (sentence) => {
    const { decision } = run(post(0.5, `Bullish: Whales accumulate. ${sentence}.`), {
      conviction_style: 'conservative',
    });
    expect(decision).toEqual({
      action: 'post',
      conviction: 0.5,
      text: 'Bullish on c/bitcoin: Whales accumulate. Expect +0.5% in 3h.',
    });
  });

  it.each(['Whales accumulate. Bearishness rising.', 'Whales accumulate. I am not bullish at all.'])(
    '%j says only the other direction: skipped',
    (text) => {
      expect(run(post(0.5, text)).decision).toMatchObject({
        action: 'skip',
        skipKind: 'contradiction',
        reason: "the analyzer's text says bearish but its conviction is +0.5",
      });
    },
  );

  it('"not bullish" is no contradiction of a bearish post', () => {
    const { decision } = run(post(-0.5, 'ETF outflows, not bullish.'), { conviction_style: 'conservative' });
    expect(decision).toEqual({
      action: 'post',
      conviction: -0.5,
      text: 'Bearish on c/bitcoin: ETF outflows, not bullish. Expect -0.5% in 3h.',
    });
  });

  it('a text that names only the opposite direction makes the decision incoherent: skipped, never posted', () => {
    const { decision } = run(post(2, 'Bearish on c/solana: strong sell pressure. Expect -2.0% in 3h.'), {}, 'solana');
    expect(decision).toEqual({
      action: 'skip',
      skipKind: 'contradiction',
      reason: "the analyzer's text says bearish but its conviction is +2.0",
    });
  });

  it('a long sentence is cut at a word rather than lost', () => {
    const { decision } = run(post(0.5, 'supply shock '.repeat(40)));
    const text = decision.action === 'post' ? decision.text : '';
    expect(isPostable(text)).toBe(true);
    expect(text).toMatch(/^Bullish on c\/bitcoin: supply shock supply shock .* supply…\. Expect \+0\.5% in 3h\.$/);
  });

  it('composes a text when there is none or it cannot be cut', () => {
    for (const text of ['', 'x'.repeat(400), undefined as unknown as string]) {
      const { decision } = run(external({ action: 'post', conviction: 0.5, text }));
      expect(decision).toEqual({ action: 'post', conviction: 0.5, text: 'Bullish on c/bitcoin. Expect +0.5% in 3h.' });
    }
  });
});

describe('decide: the cell', () => {
  it('names the cell once, with or without the c/ prefix', () => {
    for (const cell of ['bitcoin', 'c/bitcoin']) {
      const { decision } = run(signal(0.6), {}, cell);
      expect(decision).toMatchObject({ text: 'Bullish on c/bitcoin: ETF inflows. Expect +0.8% in 3h.' });
    }
  });
});
