// The optional per-key limit (`--rate-limit <requests/min>`): a sliding window of one minute of real time,
// so that a fast sandbox clock does not make a client look abusive.
import type { Clock } from './clock.js';
import { MINUTE_MS } from './clock.js';

export interface RateLimiter {
  /** Counts a request by `key`; returns 0 when allowed, else the seconds to wait (Retry-After). */
  take(key: string): number;
}

export function createRateLimiter(clock: Clock, limitPerMinute: () => number): RateLimiter {
  const seen = new Map<string, number[]>();
  return {
    take(key) {
      const limit = limitPerMinute();
      if (limit <= 0) return 0;
      const now = clock.now();
      const recent = (seen.get(key) ?? []).filter((at) => at > now - MINUTE_MS);
      seen.set(key, recent);
      const oldest = recent[0];
      if (recent.length >= limit && oldest !== undefined) {
        return Math.max(1, Math.ceil((oldest + MINUTE_MS - now) / 1000));
      }
      recent.push(now);
      return 0;
    },
  };
}
