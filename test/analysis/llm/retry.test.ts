import { describe, expect, it } from 'vitest';
import { DEFAULT_PAUSE_MS, pauseBefore, RetryableError, retryAfterMs } from '../../../src/analysis/llm/retry.js';

const NOW = Date.parse('2025-06-01T12:00:00Z');

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
    expect(retryAfterMs(header, NOW)).toBe(ms);
  });
});

describe('pauseBefore', () => {
  const failed = (retryAfter?: number) => new RetryableError('m failed (429)', 'HTTP 429', retryAfter);

  it('pauses about a second when the server did not say', () => {
    expect(pauseBefore(failed())).toEqual({ ms: DEFAULT_PAUSE_MS });
  });

  it('waits a short Retry-After', () => {
    expect(pauseBefore(failed(0))).toEqual({ ms: 0 });
    expect(pauseBefore(failed(5000))).toEqual({ ms: 5000 });
  });

  it('does not wait out a long one', () => {
    expect(pauseBefore(failed(5001))).toEqual({ refuse: 'the server asked for a pause of 6 s' });
  });
});
