// One price path per cell: a pure function of seed, cell and time, continuous, moving about σ in 3 hours.
import { describe, expect, it } from 'vitest';
import { MARKETS } from '../../src/sandbox/markets.js';
import { pricePath } from '../../src/sandbox/price-path.js';
import { HOUR, MINUTE } from './helpers.js';

const T0 = Date.UTC(2025, 0, 6, 12, 0, 0);
const DAY = 24 * HOUR;

describe('pricePath', () => {
  it('is a pure function of seed, cell and time, in whatever order it is asked', () => {
    const forward = [0, 1, 2, 50].map((d) => pricePath(7, 'c/solana').at(T0 + d * DAY));
    // Another seed and cell in between, and the same instants asked backwards, on a fresh cache key.
    pricePath(8, 'solana').at(T0 + 400 * DAY);
    const backward = [50, 2, 1, 0].map((d) => pricePath(7, 'solana').at(T0 + d * DAY)).reverse();
    expect(backward).toEqual(forward);
    expect(pricePath(8, 'solana').at(T0)).not.toBe(forward[0]);
    expect(pricePath(7, 'ethereum').at(T0)).not.toBe(pricePath(7, 'bitcoin').at(T0));
  });

  it('is continuous: across 5-minute steps and across day boundaries, a second moves it by little', () => {
    const path = pricePath(3, 'arbitrum');
    const midnight = Date.UTC(2025, 0, 7);
    for (const at of [midnight, midnight + 5 * MINUTE, T0 + 2 * MINUTE + 17_000]) {
      const jump = Math.abs(path.at(at + 1000) / path.at(at - 1000) - 1);
      expect(jump, new Date(at).toISOString()).toBeLessThan(0.002);
    }
  });

  it('moves each cell by about its σ over 3 hours, and stays near its market over a year', () => {
    for (const market of MARKETS) {
      const path = pricePath(11, market.cell);
      const moves: number[] = [];
      let low = Number.POSITIVE_INFINITY;
      let high = 0;
      for (let i = 0; i < 2920; i++) {
        const at = T0 + i * 3 * HOUR;
        moves.push((path.at(at + 3 * HOUR) / path.at(at) - 1) * 100);
        low = Math.min(low, path.at(at) / market.price);
        high = Math.max(high, path.at(at) / market.price);
      }
      const rms = Math.sqrt(moves.reduce((sum, m) => sum + m * m, 0) / moves.length);
      expect(rms / market.sigma, market.cell).toBeGreaterThan(0.9);
      expect(rms / market.sigma, market.cell).toBeLessThan(1.1);
      expect(low, market.cell).toBeGreaterThan(0.4);
      expect(high, market.cell).toBeLessThan(2.5);
    }
  });

  it('prices a cell outside the market list from 1, with the default σ', () => {
    const price = pricePath(1, 'c/unknown-cell').at(T0);
    expect(price).toBeGreaterThan(0.3);
    expect(price).toBeLessThan(3);
  });
});
