import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readSignal } from '../../src/analysis/builtin.js';
import { decide } from '../../src/analysis/policy.js';
import { PROFILE_NUMBERS, sigmaOf } from '../../src/analysis/profile-numbers.js';
import { fitText } from '../../src/analysis/summary-text.js';
import type { AnalyzerOutput, Decision, Signal, Trace } from '../../src/analysis/types.js';
import {
  CONVICTION_STYLES,
  DIRECTIONAL_BIASES,
  PARTICIPATIONS,
  SIGNAL_METHODS,
  type Profile,
} from '../../src/domain/profile.js';
import { isPostable, thread } from './fixtures.js';

// Any code point, plus the lone surrogates that `'binary'` leaves out on purpose.
const anyChar = fc.oneof(
  { weight: 8, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }) },
  { weight: 1, arbitrary: fc.constantFrom('\uD83D', '\uDE00', '🚀', '👩‍👩‍👧', ' ', '\n', '\u202E') },
);
const anyText = (maxLength: number) => fc.string({ unit: anyChar, maxLength });
const cell = fc.oneof(
  fc.constantFrom('bitcoin', 'ethereum', 'general', 'solana', 'pepe', '__proto__', 'constructor'),
  anyText(80),
);
const evidence = fc.array(fc.record({ phrase: anyText(120), weight: fc.double({ min: -2, max: 2, noNaN: true }) }), {
  maxLength: 6,
});
const signal: fc.Arbitrary<Signal> = fc.record({
  kind: fc.constant('signal' as const),
  strength: fc.double({ min: -1, max: 1, noNaN: true }),
  evidence,
});
const externalPost: fc.Arbitrary<AnalyzerOutput> = fc.record({
  kind: fc.constant('decision' as const),
  action: fc.constant('post' as const),
  conviction: fc.oneof(fc.double(), fc.double({ min: -0.2, max: 0.2 }), fc.constantFrom(0, -0, 12, -12)),
  text: anyText(400),
});
const profileArb: fc.Arbitrary<Profile> = fc.record({
  signal_method: fc.constantFrom(...SIGNAL_METHODS),
  conviction_style: fc.constantFrom(...CONVICTION_STYLES),
  directional_bias: fc.constantFrom(...DIRECTIONAL_BIASES),
  participation: fc.constantFrom(...PARTICIPATIONS),
});

function run(output: AnalyzerOutput, p: Profile, cellName: string): Decision {
  const trace: Trace = [];
  return decide(thread('text', { cell: cellName, projectId: `c/${cellName}` }), p, output, trace);
}

function checkPost(decision: Decision, p: Profile, cellName: string): void {
  if (decision.action !== 'post') return;
  const c = decision.conviction;
  expect(Number.isFinite(c)).toBe(true);
  expect(c).not.toBe(0);
  expect(Object.is(c, -0)).toBe(false);
  expect(Number(c.toFixed(1))).toBe(c);
  const [, top] = PROFILE_NUMBERS.style[p.conviction_style];
  expect(Math.abs(c)).toBeLessThanOrEqual(top * sigmaOf(cellName) + 1e-9);
  expect(isPostable(decision.text)).toBe(true);
}

describe('policy invariants', () => {
  it('posting sets nest: selective ⊆ moderate ⊆ active', () => {
    fc.assert(
      fc.property(signal, profileArb, cell, (s, p, c) => {
        const posted = PARTICIPATIONS.map((participation) => run(s, { ...p, participation }, c).action === 'post');
        const [selective, moderate, active] = [posted[0], posted[1], posted[2]];
        if (selective) expect(moderate).toBe(true);
        if (moderate) expect(active).toBe(true);
      }),
    );
  });

  it('sizes order degen ≥ bold ≥ moderate ≥ conservative for the same input', () => {
    fc.assert(
      fc.property(signal, profileArb, cell, (s, p, c) => {
        const sizes = CONVICTION_STYLES.map((conviction_style) => {
          const d = run(s, { ...p, conviction_style }, c);
          return d.action === 'post' ? Math.abs(d.conviction) : 0;
        });
        expect(sizes).toEqual([...sizes].sort((a, b) => a - b));
        expect(new Set(sizes.map((x) => x === 0)).size).toBe(1);
      }),
    );
  });

  it('bias never flips the sign and never posts without evidence', () => {
    fc.assert(
      fc.property(signal, profileArb, cell, (s, p, c) => {
        const d = run(s, p, c);
        if (s.evidence.length === 0) expect(d.action).toBe('skip');
        if (d.action === 'post') expect(Math.sign(d.conviction)).toBe(Math.sign(s.strength));
        if (Math.abs(s.strength) < PROFILE_NUMBERS.cancelBelow) expect(d.action).toBe('skip');
      }),
    );
  });

  it('a bias toward the evidence never turns a post into a skip', () => {
    fc.assert(
      fc.property(signal, profileArb, cell, (s, p, c) => {
        const neutral = run(s, { ...p, directional_bias: 'neutral' }, c);
        const toward = run(s, { ...p, directional_bias: s.strength > 0 ? 'bullish' : 'bearish' }, c);
        if (neutral.action === 'post') expect(toward.action).toBe('post');
      }),
    );
  });

  it('every signal post is a valid conviction and text', () => {
    fc.assert(fc.property(signal, profileArb, cell, (s, p, c) => checkPost(run(s, p, c), p, c)));
  });

  it('every external post passes the same final checks', () => {
    fc.assert(fc.property(externalPost, profileArb, cell, (o, p, c) => checkPost(run(o, p, c), p, c)));
  });

  it('is deterministic', () => {
    fc.assert(
      fc.property(fc.oneof(signal, externalPost), profileArb, cell, (o, p, c) => {
        const first: Trace = [];
        const second: Trace = [];
        const t = thread('text', { cell: c });
        expect(decide(t, p, o, first)).toEqual(decide(t, p, o, second));
        expect(first).toEqual(second);
      }),
    );
  });
});

describe('fitText invariants', () => {
  it('returns a postable text cut from the input, or nothing', () => {
    fc.assert(
      fc.property(anyText(400), (text) => {
        const fitted = fitText(text);
        if (fitted === undefined) return;
        expect(isPostable(fitted)).toBe(true);
        expect(fitText(fitted)).toBe(fitted);
      }),
    );
  });

  it('cuts only at a space', () => {
    const words = fc.array(
      fc.string({ unit: fc.constantFrom('a', 'é', '🚀', '👩‍👩‍👧'), minLength: 1, maxLength: 12 }),
      {
        minLength: 1,
        maxLength: 80,
      },
    );
    fc.assert(
      fc.property(words, (ws) => {
        const fitted = fitText(ws.join(' '));
        if (fitted === undefined) return;
        const kept = fitted.endsWith('…') ? fitted.slice(0, -1).split(' ') : fitted.split(' ');
        expect(kept).toEqual(ws.slice(0, kept.length));
      }),
    );
  });
});

describe('built-in analyzer invariants', () => {
  const phrases = fc.constantFrom(
    'Whales move 10,000 BTC to Binance',
    'not bullish',
    'ETF inflows hit $500M',
    'withdrawals are no longer halted',
    'exploit drains $40M',
    'RSI oversold',
    'golden cross',
    'SEC sues the exchange',
    'rate cuts ahead',
  );
  const text = fc.array(fc.oneof(phrases, anyText(30)), { maxLength: 8 }).map((parts) => parts.join('. '));

  it('is deterministic and keeps strength in [-1, 1]', () => {
    fc.assert(
      fc.property(text, profileArb, (t, p) => {
        const first: Trace = [];
        const second: Trace = [];
        const a = readSignal(thread(t), p, first);
        expect(readSignal(thread(t), p, second)).toEqual(a);
        expect(first).toEqual(second);
        expect(Math.abs(a.strength)).toBeLessThanOrEqual(1);
        const magnitudes = a.evidence.map((e) => Math.abs(e.weight));
        expect(magnitudes).toEqual([...magnitudes].sort((x, y) => y - x));
      }),
    );
  });
});
