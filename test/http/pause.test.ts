import { describe, expect, it } from 'vitest';
import { backoffMs, MAX_BACKOFF_MS, MIN_BACKOFF_MS, retryAfterMs } from '../../src/http/pause.js';
import { T0 } from '../support/timing.js';

describe('backoffMs: max(60 s, Retry-After), capped at an hour', () => {
  const cases: Array<[what: string, header: string | string[] | undefined, ms: number, capped: boolean]> = [
    ['missing', undefined, MIN_BACKOFF_MS, false],
    ['empty', '', MIN_BACKOFF_MS, false],
    ['seconds', '61', 61_000, false],
    ['seconds with spaces', ' 300 ', 300_000, false],
    ['fraction', '60.25', 60_250, false],
    ['below the floor', '1', MIN_BACKOFF_MS, false],
    ['HTTP date ahead', new Date(T0 + 600_000).toUTCString(), 600_000, false],
    ['ISO date ahead', new Date(T0 + 120_000).toISOString(), 120_000, false],
    ['HTTP date behind', new Date(T0 - 600_000).toUTCString(), MIN_BACKOFF_MS, false],
    ['garbage', 'banana', MIN_BACKOFF_MS, false],
    ['a negative number', '-120', MIN_BACKOFF_MS, false],
    ['exponent notation', '1e9', MIN_BACKOFF_MS, false],
    ['the first of several', ['120', '5'], 120_000, false],
    ['exactly an hour', '3600', MAX_BACKOFF_MS, false],
    ['a day', '86400', MAX_BACKOFF_MS, true],
    ['too long to be a number', '9'.repeat(400), MAX_BACKOFF_MS, true],
    ['a date next year', new Date(T0 + 365 * 86_400_000).toUTCString(), MAX_BACKOFF_MS, true],
  ];
  it.each(cases)('%s', (_what, header, ms, capped) => {
    expect(backoffMs(header, T0)).toEqual({ ms, capped });
  });
});

describe('retryAfterMs', () => {
  it.each([
    [undefined, undefined],
    ['', undefined],
    ['soon', undefined],
    ['2', 2000],
    ['0.5', 500],
    [['3', '9'], 3000],
    ['Sun, 01 Jun 2025 12:00:04 GMT', 4000],
    ['Sun, 01 Jun 2025 11:00:00 GMT', 0],
  ])('%j → %s', (header, ms) => {
    expect(retryAfterMs(header, T0)).toBe(ms);
  });
});
