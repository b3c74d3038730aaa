import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { type PollOptions, runPoll } from '../../../src/commands/poll/run.js';
import { onlineContext, registerWith } from '../../support/in-process.js';
import { sandboxPerTest } from '../../support/sandbox-per-test.js';

// `agent poll` in-process against a loopback sandbox with no feed of its own: the report a user reads
// (text and --json), what a dry run leaves untouched, the refusals. test/e2e/poll.test.ts runs it on the
// binary, where the crash, lock and cron promises are proved.

const world = sandboxPerTest('agent-poll-', { ratePerMinute: 0, backlog: 0 });

const BULLISH = 'Spot ETF inflows hit $500M as whales withdraw 10,000 BTC from exchanges; breakout above resistance.';
const QUIET = 'A calm day on the chain: nothing moved, nobody said much, volumes flat across the board.';
const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000).toISOString();

async function registered() {
  const dir = path.join(world.dir, 'config');
  await registerWith(world.sandbox.url, dir, 'poll-agent');
  world.sandbox.addThread({ id: 'up', text: BULLISH, project_id: 'c/bitcoin', timestamp: at(3) });
  world.sandbox.addThread({ id: 'calm', text: QUIET, project_id: 'c/ethereum', timestamp: at(2) });
  return dir;
}

async function poll(dir: string, options: PollOptions, { json = false } = {}) {
  const { ctx, run } = onlineContext(dir, undefined, { json, env: { HOME: world.dir } });
  return run(() => runPoll(ctx, options));
}

const posts = () => world.sandbox.requests.filter((r) => r.method === 'POST' && r.path.startsWith('/comment/'));

it('--dry-run: prints what it would post and skip, posts nothing, and leaves the state and history as they were', async () => {
  const dir = await registered();
  const state = fs.readFileSync(path.join(dir, 'state.json'));
  const text = await poll(dir, { dryRun: true });
  expect(text.code).toBe(0);
  expect(text.stdout).toMatch(/^would post +\+\d+\.\d% {2}up {2}Bullish on c\/bitcoin/m);
  expect(text.stdout).toMatch(/1 would post, 1 skipped, 0 failed/);

  const json = await poll(dir, { dryRun: true }, { json: true });
  const report = JSON.parse(json.stdout);
  expect(report.posted).toEqual([expect.objectContaining({ threadId: 'up', predictionId: null })]);
  expect(report.skipped).toEqual([expect.objectContaining({ threadId: 'calm', reason: expect.any(String) })]);
  expect(posts()).toEqual([]);
  expect(fs.readFileSync(path.join(dir, 'state.json'))).toEqual(state);
  expect(fs.existsSync(path.join(dir, 'history.jsonl'))).toBe(false);
});

it('a poll posts once per new thread, reports the prediction ids, records them, and the next poll has nothing new', async () => {
  const dir = await registered();
  const first = JSON.parse((await poll(dir, {}, { json: true })).stdout);
  expect(first.posted).toEqual([
    expect.objectContaining({ threadId: 'up', predictionId: world.sandbox.comments()[0]!.id }),
  ]);
  expect(first.skipped).toEqual([expect.objectContaining({ threadId: 'calm' })]);
  expect(posts()).toHaveLength(1);
  const history = fs.readFileSync(path.join(dir, 'history.jsonl'), 'utf8');
  expect(history).toContain('"kind":"post"');
  expect(history).toContain('"threadId":"up"');

  const again = JSON.parse((await poll(dir, {}, { json: true })).stdout);
  expect(again.posted).toEqual([]);
  expect(posts()).toHaveLength(1);
});

it.each<[PollOptions, RegExp]>([
  [{ limit: '0' }, /^agent: --limit must be a whole number from 1 to \d+ \(got "0"\) \(nothing was sent\)$/],
  [{ interval: '60' }, /^agent: --interval goes with --watch$/],
  [{ watch: true, dryRun: true }, /^agent: --watch and --dry-run cannot go together \(a dry run is one cycle\)$/],
  [{ watch: true, interval: '1' }, /^agent: --interval must be a number of seconds from \d+ to \d+ \(got "1"\)$/],
])('%j: a usage error (exit 2), nothing sent', async (options, message) => {
  const dir = await registered();
  const before = world.sandbox.requests.length;
  const result = await poll(dir, options);
  expect(result).toMatchObject({ code: 2, stdout: '' });
  expect(result.stderr.trimEnd()).toMatch(message);
  expect(world.sandbox.requests.length).toBe(before);
});
