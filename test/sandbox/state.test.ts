// --state <file>: the store survives a restart, the file is private and replaced atomically, and it holds
// key hashes, never keys.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createFakeClock } from '../../src/sandbox/clock.js';
import { createSandbox } from '../../src/sandbox/server.js';
import { SandboxStore } from '../../src/sandbox/sandbox-store.js';
import { HOUR, MINUTE, call, predict, register, start } from './helpers.js';

const made: string[] = [];
const tempDir = (prefix: string) => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
};
const tempState = () => join(tempDir('sandbox-state-'), 'nested', 'state.json');
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('--state round trip', () => {
  it('keeps agents, keys, threads, predictions and the feed position across a restart', async () => {
    const statePath = tempState();
    const clock = createFakeClock();
    const first = await start({ statePath, clock, seed: 5, ratePerMinute: 1 });
    clock.advance(5 * MINUTE);
    const { key, agent } = await register(first.url, 'durable-bee');
    const threads = (await call(first.url, 'GET', '/thread', { key })).body;
    expect(threads).toHaveLength(5);
    expect((await predict(first.url, key, threads[0].id, 0.8)).status).toBe(201);
    await first.sandbox.close();

    const mode = statSync(statePath).mode & 0o777;
    expect(mode).toBe(0o600);
    const text = readFileSync(statePath, 'utf8');
    expect(text).not.toContain(key);
    expect(text).not.toContain(key.slice(5));
    expect(readdirSync(join(statePath, '..'))).toEqual(['state.json']);

    clock.advance(MINUTE);
    const second = await start({ statePath, clock, seed: 5, ratePerMinute: 1 });
    const me = await call(second.url, 'GET', '/agent/me', { key });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ id: agent.id, total_comments: 1 });
    const after = (await call(second.url, 'GET', '/thread', { key })).body;
    expect(after.slice(0, 5)).toEqual(threads);
    expect(after).toHaveLength(6);
    expect(new Set(after.map((t: { id: string }) => t.id)).size).toBe(6);
    expect((await predict(second.url, key, threads[0].id, 0.8)).status).toBe(409);
    expect(
      (
        await call(second.url, 'POST', '/agent/register', {
          json: { name: 'durable-bee', prediction_profile: agent.prediction_profile },
        })
      ).status,
    ).toBe(409);
  });

  it('scores after a restart the predictions made before it', async () => {
    const statePath = tempState();
    const clock = createFakeClock();
    const first = await start({ statePath, clock });
    first.sandbox.addThread({ id: 'later', project_id: 'c/bitcoin', movePct: 0.9 });
    const { key } = await register(first.url, 'patient-bee');
    await predict(first.url, key, 'later', 0.9);
    await first.sandbox.close();
    clock.advance(3 * HOUR);
    const second = await start({ statePath, clock });
    expect((await call(second.url, 'GET', '/agent/me', { key })).body.honey).toBe(20);
  });

  it('starts empty without a file and refuses a file that is not a state file', () => {
    const statePath = tempState();
    expect(createSandbox({ statePath, clock: createFakeClock() }).store.threads()).toHaveLength(0);
    const bad = join(tempDir('sandbox-bad-'), 'state.json');
    writeFileSync(bad, '{"hello": 1}');
    expect(() => createSandbox({ statePath: bad })).toThrow(/not a sandbox state file/);
    writeFileSync(bad, '{broken');
    expect(() => createSandbox({ statePath: bad })).toThrow(/cannot read sandbox state/);
  });

  it('readOnly loads the file but never writes it, not even on save()', () => {
    const statePath = tempState();
    const clock = createFakeClock();
    createSandbox({ statePath, clock, seed: 3, backlog: 4 });
    const before = readFileSync(statePath, 'utf8');
    const reader = createSandbox({ statePath, clock, seed: 3, ratePerMinute: 1, readOnly: true });
    expect(reader.store.threads()).toHaveLength(4);
    clock.advance(4 * HOUR);
    reader.tick();
    reader.save();
    expect(reader.store.threads().length).toBeGreaterThan(4);
    expect(readFileSync(statePath, 'utf8')).toBe(before);
    const fresh = tempState();
    createSandbox({ statePath: fresh, clock, backlog: 4, readOnly: true }).save();
    expect(() => statSync(fresh)).toThrow();
  });

  it('round-trips the store through JSON', () => {
    const sandbox = createSandbox({ clock: createFakeClock(), seed: 3, backlog: 4 });
    const copy = SandboxStore.fromJSON(JSON.parse(JSON.stringify(sandbox.store.toJSON())));
    expect(copy.toJSON()).toEqual(sandbox.store.toJSON());
    expect(copy.dirty).toBe(false);
  });
});
