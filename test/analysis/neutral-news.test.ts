import { describe, expect, it } from 'vitest';
import { decide, direction } from './fixtures.js';

// News titles that say nothing about a coin's price in the next hours, though a rule's words are in
// them. Each sentence is written for this test; the trace names the rule or frame that took it.

describe('news that names no coin move', () => {
  it.each([
    [
      'Exchange OKX adds Polish zloty and euro trading pairs',
      "is a venue's rail for a government currency, no coin: fiat.rail",
    ],
    [
      'Kraken rolls out peso deposits in Mexico and Argentina',
      "is a venue's rail for a government currency, no coin: fiat.rail",
    ],
    ['Crypto app introduces rupee on-ramp via UPI', "is a venue's rail for a government currency, no coin: fiat.rail"],
  ])('%j', async (text, line) => {
    for (const level of ['moderate', 'active'] as const) {
      const { decision, trace } = await decide(text, level);
      expect(direction(decision), trace.join('\n')).toBe('skip');
      expect(trace.join('\n')).toContain(line);
    }
  });
});

describe('the same words where they do name a coin', () => {
  it.each([
    ['Bithumb adds won trading pairs for two AI tokens', 'up'],
    ['Venue adds lira pairs while litecoin jumps 12%', 'up'],
  ])('%j', async (text, want) => {
    const { decision, trace } = await decide(text, 'moderate');
    expect(direction(decision), trace.join('\n')).toBe(want);
  });
});
