import { describe, expect, it } from 'vitest';
import { parseDuration } from '../../src/domain/duration.js';
import { UsageError } from '../../src/errors.js';

describe('parseDuration', () => {
  it.each([
    ['30m', 30 * 60_000],
    ['12h', 12 * 3_600_000],
    ['7d', 7 * 86_400_000],
    [' 1d ', 86_400_000],
  ])('%j is %i ms', (raw, ms) => {
    expect(parseDuration(raw, '--since')).toBe(ms);
  });

  it.each(['', '7', 'd', '0d', '-1d', '1.5h', '2w', '1e3m', '100000d'])(
    '%j is a usage error naming the flag',
    (raw) => {
      expect(() => parseDuration(raw, '--since')).toThrow(UsageError);
      expect(() => parseDuration(raw, '--since')).toThrow(/--since must be a duration such as 30m, 12h or 7d/);
    },
  );
});
