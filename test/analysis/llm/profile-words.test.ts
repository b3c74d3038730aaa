import { describe, expect, it } from 'vitest';
import { sizeWords } from '../../../src/analysis/llm/profile-words.js';
import { sizeCap } from '../../../src/analysis/profile-numbers.js';
import { decide } from '../../../src/analysis/policy.js';
import { sigmaOf } from '../../../src/analysis/profile-numbers.js';
import { CONVICTION_STYLES } from '../../../src/domain/profile.js';
import { profile, thread } from '../fixtures.js';

describe('the sizes the model is told', () => {
  const cells = ['bitcoin', 'ethereum', 'solana', 'some-small-cap'];

  it.each(CONVICTION_STYLES)('%s: the cap said is the cap the policy applies', (style) => {
    for (const cell of cells) {
      const decision = decide(
        thread('x', { cell, projectId: `c/${cell}` }),
        profile({ conviction_style: style }),
        {
          kind: 'decision',
          action: 'post',
          conviction: 99,
          text: 'Bullish: a very large move is expected, says the model.',
        },
        [],
      );
      expect(decision).toMatchObject({ action: 'post', conviction: sizeCap(style, sigmaOf(cell)) });
    }
  });

  it('grow with the style', () => {
    const caps = CONVICTION_STYLES.map((style) => sizeCap(style, 1.2));
    expect(caps).toEqual([...caps].sort((a, b) => a - b));
    expect(sizeWords('degen', 1.2)).toBe(
      "degen: very large sizes, about 1-4 × the cell's typical 3-hour move of 1.2%, so roughly 1.2% to 4.8% either way; larger sizes are cut down to 4.8%",
    );
  });
});
