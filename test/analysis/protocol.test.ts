import { describe, expect, it } from 'vitest';
import { analyzerInput, parseAnswer, parseAnswerText, parseInput } from '../../src/analysis/protocol.js';
import { decide } from '../../src/analysis/policy.js';
import { AnalyzerError } from '../../src/errors.js';
import { thread } from '../support/threads.js';

const PROFILE = {
  signal_method: 'onchain',
  conviction_style: 'bold',
  directional_bias: 'neutral',
  participation: 'active',
} as const;

describe('what an analyzer is shown', () => {
  it('the protocol fields only, built field by field: an outcome on the thread object never leaks', () => {
    const leaky = {
      ...thread('t1', '2026-03-02T08:15:00Z', {
        priceOnFetch: 96850,
        citations: [{ url: 'https://x.example', title: 'T' }],
      }),
      price_on_eval: 99999,
      priceOnEval: 99999,
    };
    const input = analyzerInput(leaky, { ...PROFILE, secret: 'x' } as typeof PROFILE);
    expect(input).toStrictEqual({
      version: 1,
      thread: {
        id: 't1',
        project_id: 'c/bitcoin',
        text: leaky.text,
        timestamp: '2026-03-02T08:15:00Z',
        price_on_fetch: 96850,
        citations: [{ url: 'https://x.example', title: 'T' }],
      },
      profile: PROFILE,
      cell: { name: 'bitcoin', typical_move_pct: 0.9 },
    });
    expect(JSON.stringify(input)).not.toContain('99999');
  });

  it('parseInput reads it back (the other side, `analyze --stdin`)', () => {
    const original = thread('t1', '2026-03-02T08:15:00Z', { priceOnFetch: 96850 });
    expect(parseInput(JSON.parse(JSON.stringify(analyzerInput(original, PROFILE))))).toEqual({
      thread: original,
      profile: PROFILE,
    });
    expect(parseInput({ version: 2, thread: {}, profile: PROFILE })).toEqual({
      error: "protocol version 2 is newer than this agent's (1)",
    });
    expect(parseInput({ ...analyzerInput(original, PROFILE), version: 2 })).toEqual({
      error: "protocol version 2 is newer than this agent's (1)",
    });
  });
});

describe('what an analyzer may answer', () => {
  it.each([
    [
      'a signal: each phrase an equal share',
      { strength: 0.6, evidence: ['ETF inflows', ' whales \n buying '] },
      {
        kind: 'signal',
        strength: 0.6,
        evidence: [
          { phrase: 'ETF inflows', weight: 0.3 },
          { phrase: 'whales buying', weight: 0.3 },
        ],
      },
    ],
    ['a signal without evidence', { strength: 0.6, evidence: [] }, { kind: 'signal', strength: 0.6, evidence: [] }],
    [
      'evidence shares the strength',
      { strength: 0.6, evidence: ['bearish: expect -15% crash', 'see https://x.example', 'ETF inflows'] },
      {
        kind: 'signal',
        strength: 0.6,
        evidence: [
          { phrase: 'bearish: expect -15% crash', weight: 0.2 },
          { phrase: 'see https://x.example', weight: 0.2 },
          { phrase: 'ETF inflows', weight: 0.2 },
        ],
      },
    ],
    [
      'a post',
      { action: 'post', conviction: -1.5, text: 'Bearish: unlock.', extra: 1 },
      { kind: 'decision', action: 'post', conviction: -1.5, text: 'Bearish: unlock.' },
    ],
    [
      'a post without text (the policy composes one)',
      { action: 'post', conviction: 2 },
      { kind: 'decision', action: 'post', conviction: 2, text: '' },
    ],
    ['a skip', { action: 'skip', reason: 'nothing new' }, { kind: 'decision', action: 'skip', reason: 'nothing new' }],
  ])('%s', (_name, answer, expected) => {
    expect(parseAnswer(answer, 'it')).toEqual(expected);
  });

  it.each([
    ['null', null, 'it answered with null, not a signal'],
    ['a number', 3, 'it answered with a number, not a signal'],
    [
      'a post without conviction',
      { action: 'post', text: 'x' },
      'it answered with an invalid "post" decision (conviction: ',
    ],
    ['a conviction as text', { action: 'post', conviction: '2' }, 'invalid "post" decision (conviction: '],
    ['an unknown action', { action: 'hold' }, 'it answered with action "hold": it must be "post" or "skip"'],
    ['neither shape', { mood: 'good' }, 'it answered with an invalid signal (strength: '],
    [
      'too much evidence',
      { strength: 1, evidence: Array.from({ length: 21 }, () => 'x') },
      'at most 20 phrases of evidence',
    ],
  ])('%s is an AnalyzerError saying what is wrong', (_name, answer, message) => {
    expect(() => parseAnswer(answer, 'it')).toThrow(AnalyzerError);
    expect(() => parseAnswer(answer, 'it')).toThrow(message);
  });

  it('the last non-empty line of stdout is the answer; earlier lines are chatter', () => {
    expect(parseAnswerText('thinking…\n{"action":"skip","reason":"r"}\n\n', 'it')).toEqual({
      kind: 'decision',
      action: 'skip',
      reason: 'r',
    });
    expect(() => parseAnswerText('{"action":"skip"}\nall done\n', 'it')).toThrow(
      'it printed a last line that is not JSON: "all done"',
    );
    expect(() => parseAnswerText(' \n', 'it')).toThrow('it printed no answer on stdout');
  });
});

describe('an external signal in a post', () => {
  it('its evidence is quoted only where it gives a reason', () => {
    const output = parseAnswer(
      {
        strength: 0.6,
        evidence: ['bearish momentum fading', 'expect +15%', 'see https://x.example', 'ETF inflows, not bearish'],
      },
      'it',
    );
    const decision = decide(
      thread('t1', '2026-03-02T08:15:00Z'),
      { ...PROFILE, conviction_style: 'moderate' },
      output,
      [],
    );
    expect(decision).toEqual({
      action: 'post',
      conviction: 0.9,
      text: 'Bullish on c/bitcoin: ETF inflows, not bearish. Expect +0.9% in 3h.',
    });
  });
});
