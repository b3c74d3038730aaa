import { describe, expect, it } from 'vitest';
import { decide, direction } from './fixtures.js';

// A past move named beside a reversal is not the text's direction: "backs off after a five-day rally" is
// a step back. Each case here posted the past move's way before, in words written for this test, with the
// trace line that says why it no longer does.

describe('a reversal reads the way it turns, not the way the move it ends went', () => {
  it.each([
    ['ETH rally halted at $4K resistance', 'down', '"rally halted" → gains fading'],
    ['Bitcoin rally capped just under $70K', 'down', '"rally capped" → gains fading'],
    ['The SOL bounce breaks as sellers return', 'down', '"bounce breaks" → gains fading'],
    ['BTC backs off after a five-day rally', 'down', '"backs off after a five-day rally" → gains fading'],
    ['XRP stalls after its 20% surge', 'down', '"stalls after its 20% surge" → gains fading'],
    ['Ether edges back from early gains', 'down', '"edges back from early gains" → gains fading'],
    ['Bitcoin just gave back nearly all of its $4,000 gain', 'down', 'gains fading'],
    ['Crypto stocks stumble toward their best week since March', 'down', 'gains fading'],
    ['DOGE snaps a six-day winning streak', 'down', '"snaps a six-day winning streak" → gains fading'],
    ['Solana steadies after a two-day slide', 'up', '"steadies after a two-day slide" → losses recovered'],
    ['AVAX trims losses in late trade', 'up', '"trims losses" → losses recovered'],
    ['LINK ends a four-day losing streak', 'up', '"ends a four-day losing streak" → losses recovered'],
  ])('%j posts %s', async (text, want, line) => {
    const { decision, trace } = await decide(text);
    expect(direction(decision), trace.join('\n')).toBe(want);
    expect(trace.join('\n')).toContain(line);
  });

  it('still reads a rally that breaks a level, or one that runs on, as a rise', async () => {
    expect(direction((await decide('Bitcoin rally breaks $70K resistance')).decision)).toBe('up');
    expect(direction((await decide('BTC rallies for a sixth straight day')).decision)).toBe('up');
  });

  it('skips a spent bull market it cannot tie to a coin rather than read the bull market', async () => {
    const { decision, trace } = await decide('This bull market is running on fumes');
    expect(direction(decision)).toBe('skip');
    expect(trace.join('\n')).toContain('"bull market is running on fumes" → gains fading');
  });
});
