import { describe, expect, it } from 'vitest';
import { decide, direction, expectReading } from './fixtures.js';

// A past move named beside a reversal or a forecast is not the text's direction: "backs off after a
// five-day rally" is a step back, "down 60% from the top, room to run" is a call to buy. Each case here
// posted the past move's way before, in words written for this test, with the trace line that says why
// it no longer does.

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
  ] as const)('%j posts %s', (text, want, line) => expectReading(text, want, line));

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

describe('a forecast decides, and the past move beside it is background', () => {
  it.each([
    ['SOL is down 60% from the top, plenty of room to run', 'up', '"down 60%"'],
    ['ADA crashed 70% this year and now can run big', 'up', '"crashed"'],
    ['After a 40% slide, ETH looks ready to bounce', 'up', '"slide"'],
    ['DOGE tripled this month and is poised to drop', 'down', '"tripled"'],
    ['Bitcoin up 120% this year, headed for a correction', 'down', '"up 120%"'],
  ])('%j posts %s', async (text, want, move) => {
    const { decision, trace } = await decide(text);
    const lines = trace.join('\n');
    expect(direction(decision), lines).toBe(want);
    expect(lines).toContain(`${move} is background: a past move beside a forecast`);
  });

  it('skips when the forecast cannot stand alone, rather than read the past move', async () => {
    const { decision, trace } = await decide('Up 75% off the bottom, lots of room to fall from here');
    const lines = trace.join('\n');
    expect(direction(decision), lines).toBe('skip');
    expect(lines).toContain('"Up 75%" is background: a past move beside a forecast ("room to fall")');
    expect(lines).toContain('"room to fall" → a fall ahead');
  });

  it('skips when the forecast is negated: the move is still only its background', async () => {
    const { decision, trace } = await decide('ETH is up 50% and has no room to run');
    expect(direction(decision), trace.join('\n')).toBe('skip');
    expect(trace.join('\n')).toContain('is background: a past move beside a forecast');
  });

  it('reads no forecast in a limit, an object or a cause', async () => {
    for (const text of [
      'BTC up 30% with little room to run',
      'The fund is set to run the new bitcoin mining site',
      'The exchange is about to drop its lawsuit against the SEC',
    ]) {
      const { trace } = await decide(text);
      expect(trace.join('\n'), text).not.toMatch(/a (?:rise|fall) ahead/);
    }
  });
});
