// The test-control surface end-to-end tests steer the sandbox with: the request log, interceptors,
// addThread/lockThread, comments(), resolvedThreads(), live settings, and startSandbox/close themselves.
import { describe, expect, it } from 'vitest';
import { createFakeClock } from '../../src/sandbox/clock.js';
import { SANDBOX_CLI_DEFAULTS, formatListeningLine, startSandbox } from '../../src/sandbox/index.js';
import { HOUR, call, predict, register, start } from './helpers.js';

describe('startSandbox', () => {
  it('listens on 127.0.0.1 and a free port, and prints the line the CLI shows', async () => {
    const { url } = await start();
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(formatListeningLine(url)).toBe(`Sandbox listening on ${url}`);
    expect(formatListeningLine('http://127.0.0.1:4010')).toBe('Sandbox listening on http://127.0.0.1:4010');
  });

  it('closes promptly even with a client connection held open, and closing twice is fine', async () => {
    const sandbox = await startSandbox({ clock: createFakeClock() });
    sandbox.intercept(() => true); // never answers: a stalled request
    const stalled = fetch(`${sandbox.url}/thread`).catch((error: unknown) => error);
    await new Promise((resolve) => setImmediate(resolve));
    await sandbox.close();
    await sandbox.close();
    expect(await stalled).toBeInstanceOf(Error);
  });

  it('exports lively defaults for the CLI command', () => {
    expect(SANDBOX_CLI_DEFAULTS).toMatchObject({ host: '127.0.0.1', port: 0 });
    expect(SANDBOX_CLI_DEFAULTS.ratePerMinute).toBeGreaterThan(0);
  });
});

describe('test controls', () => {
  it('logs every request with method, path and headers, interceptors included', async () => {
    const { url, sandbox } = await start();
    const { key } = await register(url, 'log-bee');
    await call(url, 'GET', '/thread?limit=5', { key });
    expect(sandbox.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /agent/register',
      'GET /thread?limit=5',
    ]);
    expect(sandbox.requests[0]?.headers['x-api-key']).toBeUndefined();
    expect(sandbox.requests[1]?.headers['x-api-key']).toBe(key);
    expect(sandbox.requests[0]?.body).toContain('log-bee');
  });

  it('keeps only the latest requestLogLimit entries', async () => {
    const { url, sandbox } = await start({ requestLogLimit: 2 });
    for (const path of ['/a', '/b', '/c']) await call(url, 'GET', path);
    expect(sandbox.requests.map((r) => r.path)).toEqual(['/b', '/c']);
  });

  it('lets an interceptor answer (a one-shot 429, a redirect) and be removed', async () => {
    const { url, sandbox } = await start();
    const { key } = await register(url, 'hooked-bee');
    let shots = 1;
    const remove = sandbox.intercept((req, res) => {
      if (req.url?.startsWith('/thread') && shots-- > 0) {
        res.writeHead(429, { 'retry-after': '60', 'content-type': 'application/json' }).end('{"error":"rate_limited"}');
        return true;
      }
      if (req.url === '/agent/me') {
        res.writeHead(302, { location: 'http://evil.invalid/steal' }).end();
        return true;
      }
      return false;
    });
    expect((await call(url, 'GET', '/thread', { key })).status).toBe(429);
    expect((await call(url, 'GET', '/thread', { key })).status).toBe(200);
    const redirected = await fetch(`${url}/agent/me`, { headers: { 'x-api-key': key }, redirect: 'manual' });
    expect(redirected.status).toBe(302);
    remove();
    expect((await call(url, 'GET', '/agent/me', { key })).status).toBe(200);
    expect(sandbox.requests).toHaveLength(5);
  });

  it('answers 500 when an interceptor throws, and reports it', async () => {
    const errors: unknown[] = [];
    const { url, sandbox } = await start({ onError: (error) => errors.push(error) });
    sandbox.intercept(() => {
      throw new Error('boom');
    });
    const res = await call(url, 'GET', '/thread');
    expect(res.status).toBe(500);
    expect(res.body.error).toBe('internal');
    expect(errors).toHaveLength(1);
  });

  it('adds threads with explicit fields and refuses a duplicate id', async () => {
    const { sandbox } = await start();
    const thread = sandbox.addThread({
      id: 'x1',
      project_id: 'c/bitcoin',
      text: 'Custom text',
      timestamp: '2025-01-06T11:00:00Z',
      price_on_fetch: 100_000,
      citations: [{ url: 'https://example.com/a', title: 'A' }],
    });
    expect(thread).toEqual({
      id: 'x1',
      pollen_id: expect.any(String),
      project_id: 'c/bitcoin',
      text: 'Custom text',
      timestamp: '2025-01-06T11:00:00.000Z',
      locked: false,
      price_on_fetch: 100_000,
      citations: [{ url: 'https://example.com/a', title: 'A' }],
    });
    // A text given by hand gets no citations written for another text, unless they are given too.
    expect(sandbox.addThread({ id: 'own', text: 'Own text, nothing cited' }).citations).toEqual([]);
    expect(() => sandbox.addThread({ id: 'x1' })).toThrow(/already exists/);
    expect(() => sandbox.addThread({ timestamp: 'soon' })).toThrow(/invalid thread timestamp/);
    expect(sandbox.lockThread('x1').locked).toBe(true);
    expect(() => sandbox.lockThread('nope')).toThrow();
  });

  it('lists predictions with their awards, and resolved threads for backtests', async () => {
    const { url, sandbox, clock } = await start();
    sandbox.addThread({ id: 'r1', project_id: 'c/solana', price_on_fetch: 200, movePct: -2 });
    const { key, agent } = await register(url, 'record-bee');
    await predict(url, key, 'r1', -2);
    expect(sandbox.comments()).toEqual([
      expect.objectContaining({ thread_id: 'r1', agent_id: agent.id, conviction: -2, honey: undefined }),
    ]);
    expect(sandbox.resolvedThreads()).toEqual([]);
    clock.advance(3 * HOUR);
    sandbox.tick();
    expect(sandbox.comments()[0]?.honey).toBe(20);
    expect(sandbox.resolvedThreads()).toEqual([
      expect.objectContaining({ id: 'r1', price_on_fetch: 200, price_on_eval: 196, locked: true }),
    ]);
  });
});
