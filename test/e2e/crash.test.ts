import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BULLISH, createWorld, type World } from './harness.js';

// kill -9 at the named points of a run (a test-only hook in src/main.ts), then a recovery run:
// nothing is posted twice (never-twice), the state file is a complete version (state-intact), nothing is lost that had
// not possibly been posted (no-thread-lost).

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000).toISOString();
const posts = (w: World) => w.sandbox.requests.filter((r) => r.method === 'POST' && r.path.startsWith('/comment/'));

async function withThreads(count: number): Promise<World> {
  world = await createWorld();
  expect((await world.register()).code).toBe(0);
  for (let i = 0; i < count; i++)
    world.sandbox.addThread({ id: `t${i}`, text: BULLISH, project_id: 'c/bitcoin', timestamp: at(10 - i) });
  return world;
}

describe('poll killed', () => {
  it('after the "posting" marks are on disk, before any POST: nothing posted, then or later', async () => {
    const w = await withThreads(3);
    const killed = await w.agent(['poll'], { env: { AGENT_TEST_CRASH_AT: 'before-post' } });
    expect(killed.code).toBeNull(); // killed by a signal
    expect(posts(w)).toHaveLength(0);
    const recovery = await w.agent(['poll', '--json']);
    expect(recovery.code).toBe(5);
    expect(
      JSON.parse(recovery.stdout)
        .failed.map((f: { threadId: string }) => f.threadId)
        .sort(),
    ).toEqual(['t0', 't1', 't2']);
    expect(posts(w)).toHaveLength(0);
    expect((await w.agent(['poll'])).code).toBe(0);
    expect(posts(w)).toHaveLength(0);
  });

  it('after the POSTs landed, before "posted" was saved: each thread has exactly one prediction', async () => {
    const w = await withThreads(3);
    expect((await w.agent(['poll'], { env: { AGENT_TEST_CRASH_AT: 'after-post' } })).code).toBeNull();
    expect(w.sandbox.comments()).toHaveLength(3);
    await w.agent(['poll']);
    await w.agent(['poll']);
    expect((await w.agent(['predict', 't1', '--conviction', '1', '--json'])).code).toBe(0);
    expect(posts(w)).toHaveLength(3);
    expect(w.sandbox.comments()).toHaveLength(3);
  });

  it('inside a state write, before the rename: the old state is whole and the temp file private', async () => {
    const w = await withThreads(2);
    const file = path.join(w.configDir, 'state.json');
    const before = fs.readFileSync(file, 'utf8');
    expect((await w.agent(['poll'], { env: { AGENT_TEST_CRASH_AT: 'before-rename' } })).code).toBeNull();
    expect(fs.readFileSync(file, 'utf8')).toBe(before);
    const temps = fs.readdirSync(w.configDir).filter((name) => name.endsWith('.tmp'));
    expect(temps).toHaveLength(1);
    expect(fs.statSync(path.join(w.configDir, temps[0]!)).mode & 0o777).toBe(0o600);
    // The killed run wrote its first "posting" marks into the temp file only: nothing was sent, so the
    // recovery run posts them all, once.
    expect(posts(w)).toHaveLength(0);
    expect((await w.agent(['poll'])).code).toBe(0);
    expect(
      w.sandbox
        .comments()
        .map((c) => c.thread_id)
        .sort(),
    ).toEqual(['t0', 't1']);
    expect((await w.agent(['poll'])).code).toBe(0);
    expect(posts(w)).toHaveLength(2);
  });
});

describe('predict killed', () => {
  it('after its POST landed, before "posted" was saved: poll does not post again', async () => {
    const w = await withThreads(1);
    expect(
      (await w.agent(['predict', 't0', '--conviction', '1.2'], { env: { AGENT_TEST_CRASH_AT: 'after-post' } })).code,
    ).toBeNull();
    expect(w.sandbox.comments()).toHaveLength(1);
    await w.agent(['poll']);
    expect((await w.agent(['predict', 't0', '--conviction', '1.2'])).code).toBe(0);
    expect(posts(w)).toHaveLength(1);
  });

  it('before its POST: nothing sent, and the thread is not posted later either', async () => {
    const w = await withThreads(1);
    expect(
      (await w.agent(['predict', 't0', '--conviction', '1.2'], { env: { AGENT_TEST_CRASH_AT: 'before-post' } })).code,
    ).toBeNull();
    await w.agent(['poll']);
    expect(posts(w)).toHaveLength(0);
  });
});
