import { expect, it } from 'vitest';
import { BULLISH, registeredWorlds, type World } from './harness.js';

// bounded: a hung, dripping or resetting service cannot hold a run; the cursor does not move past anything.

const FAST = { AGENT_TEST_REQUEST_TIMEOUT_MS: '500', AGENT_TEST_FAST_SLEEP: '1' };

const registered = registeredWorlds();

async function registeredWithThread(): Promise<World> {
  const world = await registered();
  world.sandbox.addThread({ id: 's1', text: BULLISH, project_id: 'c/bitcoin', timestamp: new Date().toISOString() });
  return world;
}

it.each([
  [
    'never answers',
    () => true, // the request is left hanging
  ],
  [
    'answers headers, then drips the body a byte at a time',
    (_req: unknown, res: import('node:http').ServerResponse) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const body = '[{"id":"s1","project_id":"c/bitcoin","text":"x","timestamp":"2026-01-01T00:00:00Z"}]';
      let i = 0;
      const timer = setInterval(() => {
        if (i >= body.length || res.destroyed) return clearInterval(timer);
        res.write(body[i++]);
      }, 100);
      return true;
    },
  ],
  [
    'resets the connection halfway through the body',
    (_req: unknown, res: import('node:http').ServerResponse) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('[{"id":"s1",');
      setTimeout(() => res.socket?.resetAndDestroy(), 50);
      return true;
    },
  ],
])('a service that %s: the poll ends quickly with exit 5 and the state untouched', async (_what, answer) => {
  const w = await registeredWithThread();
  const before = JSON.stringify(w.state());
  let tries = 0;
  w.sandbox.intercept((req, res) => {
    if (!req.url?.startsWith('/thread')) return false;
    tries += 1;
    return answer(req, res);
  });
  const result = await w.agent(['poll'], { env: FAST, timeoutMs: 25_000 });
  expect(result.code).toBe(5);
  expect(result.stderr).toMatch(/^agent: .+/);
  // A read is tried at most three times, each within its own timeout (0.5 s here), and then the run ends.
  expect(tries).toBeGreaterThanOrEqual(1);
  expect(tries).toBeLessThanOrEqual(3);
  expect(JSON.stringify(w.state())).toBe(before);
  expect(w.sandbox.comments()).toHaveLength(0);
});

it('a service that never answers is reported as every try it waited for, not as one timeout', async () => {
  const w = await registeredWithThread();
  w.sandbox.intercept((req) => req.url?.startsWith('/thread') === true);
  const result = await w.agent(['poll'], { env: FAST, timeoutMs: 25_000 });
  expect(result.code).toBe(5);
  expect(result.stderr).toBe(
    `agent: no complete answer from ${w.sandbox.url} after 3 tries of 0.5 s each (try again later)\n`,
  );
});

it('a service that is not there is named, and is temporary (exit 5)', async () => {
  const w = await registeredWithThread();
  await w.sandbox.close();
  const result = await w.agent(['poll'], { env: FAST });
  expect(result.code).toBe(5);
  expect(result.stderr).toBe(
    `agent: nothing listens on ${new URL(w.sandbox.url).host}: is the service running? (ECONNREFUSED) (start it, or check the port in the address)\n`,
  );
});
