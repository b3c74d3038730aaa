import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { runPoll } from '../../../src/commands/poll/run.js';
import { runPredict } from '../../../src/commands/predict/run.js';
import { createFakeClock, MINUTE_MS, HOUR_MS } from '../../../src/sandbox/index.js';
import { onlineContext, registerWith } from '../../support/in-process.js';
import { sandboxPerTest } from '../../support/sandbox-per-test.js';

// The record's outcome of a post, through real polls and a predict by hand against a service that sends
// fewer threads than asked (docs/service.md tolerates it: the walk lags, run after run). The outcome must
// wait for the walk, never settle from a price the predict recorded far ahead of it.

const T = Date.now() - 6 * HOUR_MS;
const clock = createFakeClock(T);
const world = sandboxPerTest('agent-record-walk-', { ratePerMinute: 0, backlog: 0, clock });

const BULLISH = 'Spot ETF inflows hit $500M as whales withdraw 10,000 BTC from exchanges; breakout above resistance.';
const QUIET = 'A calm day on the chain: nothing moved, nobody said much, volumes flat across the board.';

function run(dir: string, work: (ctx: ReturnType<typeof onlineContext>['ctx']) => Promise<unknown>) {
  const { ctx, run } = onlineContext(dir, undefined, { json: true, env: { HOME: world.dir } });
  ctx.timing = { ...ctx.timing, now: () => clock.now() };
  return run(() => work(ctx));
}

it('a post stays pending while the walk lags behind a predict by hand, then settles from the walk: wrong, as the cell fell', async () => {
  clock.set(T);
  const dir = path.join(world.dir, 'config');
  await registerWith(world.sandbox.url, dir, 'walk-agent');
  const thread = (id: string, ms: number, price: number, text = QUIET) =>
    world.sandbox.addThread({ id, text, project_id: 'c/bitcoin', timestamp: ms, price_on_fetch: price });
  thread('th_post', T, 100, BULLISH);
  clock.set(T + MINUTE_MS);
  const first = await run(dir, (ctx) => runPoll(ctx, {}));
  expect(first.code, first.stderr).toBe(0);
  expect(JSON.parse(first.stdout).posted).toEqual([expect.objectContaining({ threadId: 'th_post' })]);

  // The cell rose a little for nearly 3 hours, then fell 5%.
  thread('th_a', T + HOUR_MS, 100.5);
  thread('th_b', T + 3 * HOUR_MS - 12 * MINUTE_MS, 101);
  thread('th_c', T + 3 * HOUR_MS - 2 * MINUTE_MS, 96);
  thread('th_d', T + 3 * HOUR_MS + 3 * MINUTE_MS, 95);
  thread('th_newest', T + 3 * HOUR_MS + 40 * MINUTE_MS, 95);
  // Two threads a page, whatever the client asks: the cursor's own (the walk starts just before it) and one new.
  world.sandbox.intercept((req) => {
    if (req.method === 'GET' && req.url?.startsWith('/thread?')) req.url = req.url.replace(/limit=\d+/, 'limit=2');
    return false;
  });
  clock.set(T + 3 * HOUR_MS + 41 * MINUTE_MS);
  expect((await run(dir, (ctx) => runPoll(ctx, {}))).code).toBe(0); // reads th_a
  const predicted = await run(dir, (ctx) =>
    runPredict(ctx, 'th_newest', { conviction: '-1', text: 'Whales are moving coins to exchanges again today.' }),
  );
  expect(predicted.code, predicted.stderr).toBe(0);
  const outcomes = () =>
    fs.existsSync(path.join(dir, 'outcomes.jsonl'))
      ? fs
          .readFileSync(path.join(dir, 'outcomes.jsonl'), 'utf8')
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line))
          .filter((o) => o.threadId === 'th_post')
      : [];
  // Still behind: th_b, 12 minutes before 3 hours on, is not the price 3 hours on.
  expect((await run(dir, (ctx) => runPoll(ctx, {}))).code).toBe(0); // reads th_b
  expect(outcomes()).toEqual([]);
  for (let i = 0; i < 3; i++) expect((await run(dir, (ctx) => runPoll(ctx, {}))).code).toBe(0);
  expect(outcomes()).toEqual([expect.objectContaining({ kind: 'post', right: false })]);
  expect(outcomes()[0].move).toBeLessThan(-4);
});

it("a poll after a gap records the latest page's prices as read ahead of its walk, and the walk's as its own", async () => {
  clock.set(T);
  const dir = path.join(world.dir, 'config');
  await registerWith(world.sandbox.url, dir, 'gap-agent');
  const thread = (id: string, ms: number) =>
    world.sandbox.addThread({ id, text: QUIET, project_id: 'c/bitcoin', timestamp: ms, price_on_fetch: 100 });
  thread('th_0', T);
  clock.set(T + MINUTE_MS);
  expect((await run(dir, (ctx) => runPoll(ctx, {}))).code).toBe(0);
  for (let i = 1; i <= 6; i++) thread(`th_${i}`, T + i * 10 * MINUTE_MS);
  clock.set(T + 2 * HOUR_MS);
  // Two a page: the walk's first page is full, so the latest two are read first, ahead of it.
  expect((await run(dir, (ctx) => runPoll(ctx, { limit: '2' }))).code).toBe(0);
  const batches: Array<{ ahead: boolean; ids: string[] }> = [];
  for (const line of fs.readFileSync(path.join(dir, 'prices.jsonl'), 'utf8').trim().split('\n')) {
    const value = JSON.parse(line);
    if (value.readAt) batches.push({ ahead: value.ahead === true, ids: [] });
    else batches.at(-1)?.ids.push(value.id);
  }
  const ahead = batches.filter((b) => b.ahead);
  expect(ahead.flatMap((b) => b.ids).sort()).toEqual(['th_5', 'th_6']);
  expect(
    batches
      .filter((b) => !b.ahead)
      .flatMap((b) => b.ids)
      .sort(),
  ).toEqual(['th_0', 'th_1', 'th_2', 'th_3', 'th_4']);
});
