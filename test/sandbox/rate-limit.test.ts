// The optional per-key rate limit: 429 with Retry-After in seconds, per key, on a one-minute window of
// real time (a fake one here, so nothing sleeps).
import { describe, expect, it } from 'vitest';
import { createFakeClock } from '../../src/sandbox/clock.js';
import { createRateLimiter } from '../../src/sandbox/rate-limit.js';
import { call, register, start } from './helpers.js';

describe('rate limit', () => {
  it('answers 429 with Retry-After past the limit, per key, until the window moves on', async () => {
    const realClock = createFakeClock(0);
    const { url } = await start({ rateLimit: 3, realClock });
    const a = await register(url, 'busy-bee');
    const b = await register(url, 'calm-bee');
    for (let i = 0; i < 3; i++) expect((await call(url, 'GET', '/agent/me', { key: a.key })).status).toBe(200);
    realClock.advance(20_000);
    const limited = await call(url, 'GET', '/thread', { key: a.key });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('40');
    expect(limited.body.error).toBe('rate_limited');
    expect((await call(url, 'GET', '/agent/me', { key: b.key })).status).toBe(200);
    realClock.advance(40_000);
    expect((await call(url, 'GET', '/agent/me', { key: a.key })).status).toBe(200);
  });

  it('does not count registration, requests without a valid key, or refused requests', async () => {
    const realClock = createFakeClock(0);
    const { url, sandbox } = await start({ rateLimit: 2, realClock });
    const { key } = await register(url, 'count-bee');
    await register(url, 'other-bee');
    expect((await call(url, 'GET', '/agent/me', { key: 'hive_nope' })).status).toBe(401);
    expect((await call(url, 'GET', '/agent/me', { key })).status).toBe(200);
    expect((await call(url, 'GET', '/agent/me', { key })).status).toBe(200);
    expect((await call(url, 'GET', '/agent/me', { key })).status).toBe(429);
    expect((await call(url, 'GET', '/agent/me', { key })).status).toBe(429);
    realClock.advance(60_000);
    expect((await call(url, 'GET', '/agent/me', { key })).status).toBe(200);
    sandbox.settings.rateLimit = 0;
    for (let i = 0; i < 5; i++) expect((await call(url, 'GET', '/agent/me', { key })).status).toBe(200);
  });

  it('runs on real time, not sandbox time', async () => {
    const realClock = createFakeClock(0);
    const { url, clock } = await start({ rateLimit: 1, realClock });
    const { key } = await register(url, 'time-bee');
    expect((await call(url, 'GET', '/agent/me', { key })).status).toBe(200);
    clock.advance(3_600_000);
    expect((await call(url, 'GET', '/agent/me', { key })).status).toBe(429);
  });

  it('rounds Retry-After up to whole seconds, at least 1', () => {
    const clock = createFakeClock(0);
    const limiter = createRateLimiter(clock, () => 1);
    expect(limiter.take('k')).toBe(0);
    clock.advance(59_999);
    expect(limiter.take('k')).toBe(1);
    clock.advance(1);
    expect(limiter.take('k')).toBe(0);
    clock.advance(500);
    expect(limiter.take('k')).toBe(60);
  });
});
