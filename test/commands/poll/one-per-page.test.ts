import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { runPoll } from '../../../src/commands/poll/run.js';
import { createFakeClock, MINUTE_MS } from '../../../src/sandbox/index.js';
import { onlineContext, registerWith } from '../../support/in-process.js';
import { sandboxPerTest } from '../../support/sandbox-per-test.js';

// A service that answers one thread a page whatever limit is asked (docs/service.md: a page shorter than
// asked ends the walk, and the next run goes on from the new cursor). Run after run, the walk must reach
// every new thread, each handled once, and never stop on the same page.

const T = Date.now() - 60 * MINUTE_MS;
const clock = createFakeClock(T);
const world = sandboxPerTest('agent-one-per-page-', { ratePerMinute: 0, backlog: 0, clock });
const QUIET = 'A calm day on the chain: nothing moved, nobody said much, volumes flat across the board.';

function poll(dir: string) {
  const { ctx, run } = onlineContext(dir, undefined, { json: true, env: { HOME: world.dir } });
  ctx.timing = { ...ctx.timing, now: () => clock.now() };
  return run(() => runPoll(ctx, {}));
}

/** The thread ids each post or skip in the history names, in the order handled. */
function handled(dir: string): string[] {
  return fs
    .readFileSync(path.join(dir, 'history.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line))
    .filter((r) => r.kind === 'post' || r.kind === 'skip')
    .map((r) => r.threadId);
}

it.each([
  ['each at its own instant', (i: number) => T + i * MINUTE_MS],
  ['two at each instant', (i: number) => T + Math.ceil(i / 2) * MINUTE_MS],
])(
  'one thread a page, whatever the limit: every new thread is reached over successive polls (%s)',
  async (_name, at) => {
    clock.set(T);
    const dir = path.join(world.dir, 'config');
    await registerWith(world.sandbox.url, dir, 'one-page-agent');
    const thread = (id: string, ms: number) =>
      world.sandbox.addThread({ id, text: QUIET, project_id: 'c/bitcoin', timestamp: ms, price_on_fetch: 100 });
    thread('th_0', T);
    world.sandbox.intercept((req) => {
      if (req.method === 'GET' && req.url?.startsWith('/thread?')) req.url = req.url.replace(/limit=\d+/, 'limit=1');
      return false;
    });
    clock.set(T + MINUTE_MS / 2);
    expect((await poll(dir)).code).toBe(0);
    expect(handled(dir)).toEqual(['th_0']);

    const ids = Array.from({ length: 6 }, (_, i) => `th_${i + 1}`);
    for (const [i, id] of ids.entries()) thread(id, at(i + 1));
    clock.set(T + 10 * MINUTE_MS);
    const lists = () =>
      world.sandbox.requests.filter((r) => r.method === 'GET' && r.path.startsWith('/thread?')).length;
    const perRun: number[] = [];
    for (let run = 0; run < 3 * ids.length && handled(dir).length <= ids.length; run++) {
      const before = lists();
      const polled = await poll(dir);
      expect(polled.code, polled.stderr).toBe(0);
      perRun.push(lists() - before);
    }
    // Each in turn, each once: a thread a run, none lost, none handled twice.
    expect(handled(dir)).toEqual(['th_0', ...ids]);
    expect(perRun).toHaveLength(ids.length);
    // Never round and round one page: the page at the cursor, then the one after it.
    expect(Math.max(...perRun)).toBeLessThanOrEqual(2);
  },
);
