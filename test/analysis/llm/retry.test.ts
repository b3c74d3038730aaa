import { describe, expect, it } from 'vitest';
import { DEFAULT_PAUSE_MS, pauseBefore, RetryableError } from '../../../src/analysis/llm/retry.js';

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
