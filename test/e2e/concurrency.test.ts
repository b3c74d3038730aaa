import { afterEach, expect, it } from 'vitest';
import { BULLISH, createWorld, type World } from './harness.js';

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000).toISOString();

it('overlapping runs against a slow service: one works, the others leave at once; one prediction per thread (never-twice, one-writer)', async () => {
  world = await createWorld();
  const w = world;
  expect((await w.register()).code).toBe(0);
  for (let i = 0; i < 6; i++)
    w.sandbox.addThread({ id: `c${i}`, text: BULLISH, project_id: 'c/bitcoin', timestamp: at(10 - i) });
  // Every request takes 400 ms, so whichever run takes the lock holds it for over a second, long after
  // the others have started.
  w.sandbox.intercept(async () => {
    await new Promise((resolve) => setTimeout(resolve, 400));
    return false;
  });
  const before = w.sandbox.requests.length;
  const runs = await Promise.all([
    w.agent(['poll']),
    w.agent(['poll']),
    w.agent(['poll']),
    w.agent(['predict', 'c3', '--conviction', '1']),
  ]);
  expect(runs.slice(0, 3).map((r) => r.code)).toEqual([0, 0, 0]);
  expect([0, 5]).toContain(runs[3]!.code);
  // Exactly one run did any work: the first request of a poll lists threads, that of a predict fetches c3.
  const firsts = w.sandbox.requests
    .slice(before)
    .filter((r) => r.method === 'GET' && (r.path.startsWith('/thread?') || r.path === '/thread/c3'));
  expect(firsts).toHaveLength(1);
  const predictedIds = w.sandbox.comments().map((c) => c.thread_id);
  expect(new Set(predictedIds).size).toBe(predictedIds.length);
  const posts = w.sandbox.requests.filter((r) => r.method === 'POST' && r.path.startsWith('/comment/'));
  expect(posts.length).toBe(predictedIds.length);
  // Whatever ran, a later poll completes the work and posts nothing twice.
  expect((await w.agent(['poll'])).code).toBe(0);
  const all = w.sandbox
    .comments()
    .map((c) => c.thread_id)
    .sort();
  expect(all).toEqual(['c0', 'c1', 'c2', 'c3', 'c4', 'c5']);
});
