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
    [
      'Judge sets a hearing on the exchange bankruptcy plan for next month',
      'a court date set, no decision ("sets a hearing")',
    ],
    ['Trial of the lending platform founder on fraud charges delayed to May', 'a court date set, no decision'],
    ['Court reschedules oral arguments in the SEC lawsuit over staking', 'a court date set, no decision'],
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
    ['Regulator sues exchange over missing funds; hearing set for Friday', 'down'],
    ['Lender files for bankruptcy after the judge postpones a hearing, token sinks 25%', 'down'],
  ])('%j', async (text, want) => {
    const { decision, trace } = await decide(text, 'moderate');
    expect(direction(decision), trace.join('\n')).toBe(want);
  });
});
