import { describe, expect, it } from 'vitest';
import { combine, ONE_CUE, OUTWEIGHED, WEAK_ALONE } from '../../src/analysis/corroboration.js';
import { PROFILE_NUMBERS } from '../../src/analysis/profile-numbers.js';

// How cues combine into strength, apart from the words: the caps sit between the participation
// thresholds, so that one weak cue posts at active only and one cue alone never at selective.

const own = (why: string) => ({ why, shared: false });
const shared = (why: string) => ({ why, shared: true });

const moderateThreshold = (): number => PROFILE_NUMBERS.participation.moderate;

describe('combining cues', () => {
  it('puts each cap between the thresholds it separates', () => {
    const { selective, moderate, active } = PROFILE_NUMBERS.participation;
    expect(WEAK_ALONE).toBeGreaterThanOrEqual(active);
    expect(WEAK_ALONE).toBeLessThan(moderate);
    expect(ONE_CUE).toBeGreaterThanOrEqual(moderate);
    expect(ONE_CUE).toBeLessThan(selective);
  });

  it('reads a cue said twice as one cue, worth its strongest phrase', () => {
    const once = combine([{ cue: 'price move', weight: 0.35, matched: 'surges' }]);
    const twice = combine([
      { cue: 'price move', weight: 0.35, matched: 'surges' },
      { cue: 'price move', weight: 0.35, matched: 'rallies' },
    ]);
    expect(twice).toEqual(once);
  });

  it('lets two weak cues of their own corroborate each other, up to one cue', () => {
    const { strength, line } = combine([
      { cue: 'a', weight: 0.4, matched: 'rallies', weak: own('a move word without its coin or size') },
      { cue: 'b', weight: 0.4, matched: 'bullish', weak: own('one word, nothing priced named') },
    ]);
    expect(strength).toBe(ONE_CUE);
    expect(line).toBe('builtin: 2 weak cues agree: strength +0.66 held at +0.44');
  });

  it('does not let two phrases with the same reason (one question) corroborate', () => {
    const { strength, line } = combine([
      { cue: 'a', weight: 0.4, matched: 'rally', weak: shared('question') },
      { cue: 'b', weight: 0.4, matched: 'inflows', weak: shared('question') },
    ]);
    expect(strength).toBe(WEAK_ALONE);
    expect(line).toBe('builtin: one weak cue alone ("rally": question): strength +0.66 held at +0.20');
  });

  it('lets a cue that stands alone outweigh a weak cue against it', () => {
    const { strength, sum, outweighed } = combine([
      { cue: 'rally', weight: 0.35, matched: 'surge', weak: own('a move word without its coin or size') },
      { cue: 'slide', weight: -0.35, matched: 'shares tumble' },
    ]);
    expect(sum).toBeCloseTo(-0.35 + 0.35 * OUTWEIGHED, 3);
    expect(strength).toBeLessThanOrEqual(-moderateThreshold());
    expect(outweighed).toBe('builtin: weak cue "surge" against a cue that stands alone: ×0.25');
  });

  it('weighs weak cues in full when the cues that stand alone disagree among themselves', () => {
    const { sum, outweighed } = combine([
      { cue: 'a', weight: 0.4, matched: 'breaks out' },
      { cue: 'b', weight: -0.4, matched: 'hacked' },
      { cue: 'c', weight: 0.3, matched: 'rally', weak: own('a move word without its coin or size') },
    ]);
    expect(sum).toBeCloseTo(0.3, 3);
    expect(outweighed).toBeUndefined();
  });

  it('reads two independent cues, one of them standing alone, at full strength', () => {
    const { strength, line } = combine([
      { cue: 'a', weight: 0.45, matched: 'breaks out' },
      { cue: 'b', weight: 0.3, matched: 'bullish', weak: own('one word, nothing priced named') },
    ]);
    expect(strength).toBeCloseTo(Math.tanh(0.75), 3);
    expect(line).toBe('builtin: 2 independent cues agree');
  });
});
