import fs from 'node:fs';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { BULLISH, createWorld, type RunResult, type World } from './harness.js';

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

// key-never-shown: the key never appears on stdout, stderr, in an error message or a --verbose trace, whatever the
// service does, even when it echoes the key back at us.
it('the key appears in no output of any command or failure path', async () => {
  world = await createWorld();
  const w = world;
  const outputs: RunResult[] = [];
  const run = async (args: string[], env: Record<string, string> = {}) => {
    const result = await w.agent([...args, '--verbose'], {
      env: { AGENT_TEST_REQUEST_TIMEOUT_MS: '400', AGENT_TEST_FAST_SLEEP: '1', ...env },
    });
    outputs.push(result);
    return result;
  };
  outputs.push(await w.register('canary-agent'));
  const key = w.state().apiKey;
  w.sandbox.addThread({ id: 'k1', text: BULLISH, project_id: 'c/bitcoin', timestamp: new Date().toISOString() });

  await run(['me']);
  await run(['me', '--json']);
  await run(['update', '--bio', 'canary']);
  await run(['poll', '--dry-run']);
  await run(['predict', 'k1', '--dry-run', '--json']);

  // A service that echoes the key in every kind of error answer.
  const echo = (status: number, body: (k: string) => string, headers: Record<string, string> = {}) =>
    w.sandbox.intercept((req, res) => {
      res
        .writeHead(status, { 'content-type': 'application/json', ...headers })
        .end(body(String(req.headers['x-api-key'])));
      return true;
    });
  for (const [status, body, headers] of [
    [401, (k: string) => JSON.stringify({ message: `invalid key ${k}` })],
    [400, (k: string) => JSON.stringify({ error: { message: [`key ${k} is not allowed`] } })],
    [500, (k: string) => `<html><title>boom ${k}</title></html>`],
    [429, (k: string) => `slow down ${k}`, { 'retry-after': '1' }],
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a hostile Location that asks for the key by name
    [302, (k: string) => k, { location: `http://127.0.0.1:1/steal?key=${'${key}'}` }],
    [200, (k: string) => `{"threads": [{"id": "${k}", "text": "${k}"`],
  ] as const) {
    const stop = echo(status, body, headers as Record<string, string> | undefined);
    await run(['me']);
    await run(['poll', '--json']);
    await run(['predict', 'k1', '--conviction', '1']);
    stop();
    // A remembered 429 would silence the next runs: clear it so each failure is really exercised.
    const file = path.join(w.configDir, 'state.json');
    const state = JSON.parse(fs.readFileSync(file, 'utf8'));
    delete state.rateLimitedUntil;
    fs.writeFileSync(file, JSON.stringify(state), { mode: 0o600 });
  }
  // A thread whose text carries the key, and a run that posts.
  w.sandbox.addThread({
    id: 'k2',
    text: `${BULLISH} ${key}`,
    project_id: 'c/bitcoin',
    timestamp: new Date().toISOString(),
  });
  await run(['poll']);
  await run(['poll', '--dry-run', '--json']);
  // The history holds what those runs did, errors echoed by the service included.
  await run(['history']);
  await run(['history', '--json']);
  await run(['doctor']);
  await run(['doctor', '--json']);

  expect(outputs.length).toBeGreaterThan(20);
  for (const { stdout, stderr } of outputs) {
    expect(stdout).not.toContain(key);
    expect(stderr).not.toContain(key);
    expect(stdout + stderr).not.toContain(key.slice(5, 20)); // no long fragment either
  }
  // On disk only the state file (and nothing world-readable) holds it.
  for (const name of fs.readdirSync(w.configDir)) {
    const file = path.join(w.configDir, name);
    if (name !== 'state.json') expect(fs.readFileSync(file, 'utf8')).not.toContain(key);
    expect(fs.statSync(file).mode & 0o077).toBe(0);
  }
});
