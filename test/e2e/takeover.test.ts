// A run that lives on after its lock was taken over (one-writer): the lock is taken over once it is 15
// minutes old, even while its holder lives, and a run stopped that long (Ctrl-Z, SIGSTOP, a suspended
// machine) then woken must write nothing and post nothing (never-twice). The lock's age is set by hand.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BULLISH, minutesAgo, countPosts, registeredWorlds, type World } from './harness.js';
import { age, SCRIPT, startAgent, until } from './live-process.js';

const registered = registeredWorlds();

/** Holds the answer to the next thread list until `release` is called: the run asking is mid-cycle, lock held. */
function holdNextList(w: World): { asked: () => boolean; release: () => void } {
  let asked = false;
  let release: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => (release = resolve));
  w.sandbox.intercept(async (req) => {
    if (asked || req.method !== 'GET' || !req.url?.startsWith('/thread?')) return false;
    asked = true;
    await gate;
    return false;
  });
  return { asked: () => asked, release: () => release() };
}

const CELLS = ['c/bitcoin', 'c/ethereum', 'c/solana'];
function addThreads(w: World, ids: string[]): void {
  for (const [i, id] of ids.entries())
    w.sandbox.addThread({ id, text: BULLISH, project_id: CELLS[i % 3]!, timestamp: minutesAgo(10 - i) });
}

const lockFile = (w: World) => path.join(w.configDir, 'lock');

/** The exit codes of the poll runs the history recorded, oldest first. */
const pollExitCodes = (w: World): number[] =>
  fs
    .readFileSync(path.join(w.configDir, 'history.jsonl'), 'utf8')
    .split('\n')
    .filter((line) => line.includes('"kind":"run"'))
    .map((line) => JSON.parse(line).summary)
    .filter((summary) => summary.command === 'poll')
    .map((summary) => summary.exitCode);

describe('a run whose lock was taken over writes nothing and posts nothing after it (never-twice, one-writer)', () => {
  it.each([
    ['poll', ['poll'], {}],
    ['poll --watch', ['poll', '--watch', '--interval', '0.2'], { AGENT_TEST_SHORT_WATCH: '1' }],
  ])('%s stopped mid-cycle for "16 minutes", then continued', async (_name, args, env) => {
    const w = await registered();
    const posts = countPosts(w);
    addThreads(w, ['a', 'b', 'c']);
    const held = holdNextList(w);
    const stale = startAgent(w, args, { env });
    await until('the stale run asks for the list, holding the lock', held.asked);
    process.kill(stale.pid(), 'SIGSTOP');
    try {
      held.release();
      // 16 minutes pass: the lock is old enough to be taken over though its holder lives, and a watcher is overdue.
      age(lockFile(w), 16);
      if (fs.existsSync(path.join(w.configDir, 'watch'))) age(path.join(w.configDir, 'watch'), 16);
      const cron = await w.agent(['poll']);
      expect(cron.code, cron.stderr).toBe(0);
      expect([...posts.keys()].sort()).toEqual(['a', 'b', 'c']);
    } finally {
      process.kill(stale.pid(), 'SIGCONT');
    }
    const cursor = w.state().cursor;
    const posted = () => Object.fromEntries(posts);
    let code: number | null;
    if (args.includes('--watch')) {
      const twice = () => [...posts.values()].some((n) => n > 1);
      await until('the woken watcher ends its cycle', () => /taken over/.test(stale.output()) || twice());
      stale.child.kill('SIGTERM');
      code = (await stale.ended).code;
    } else code = (await stale.ended).code;
    // The woken run sent nothing and moved the cursor nowhere; the next poll has nothing to do.
    expect(posted()).toEqual({ a: 1, b: 1, c: 1 });
    expect(stale.output()).toMatch(/taken over/);
    expect(code, stale.output()).toBe(args.includes('--watch') ? 0 : 5);
    expect(w.state().cursor).toEqual(cursor);
    // The run that took over recorded the work; the woken one records no failed poll over it, which doctor,
    // agent list and the failing alert would count.
    expect(pollExitCodes(w).at(-1)).toBe(0);
    expect(pollExitCodes(w)).not.toContain(5);
    expect((await w.agent(['poll'])).code).toBe(0);
    expect(posted()).toEqual({ a: 1, b: 1, c: 1 });
    expect(w.state().cursor).toEqual(cursor);
  });

  it.skipIf(!SCRIPT)(
    'predict asks "Post it anyway?" without holding the lock: a poll meanwhile does its work, and the answer posts nothing twice',
    async () => {
      const w = await registered();
      const posts = countPosts(w);
      addThreads(w, ['mine']);
      const predict = startAgent(w, ['predict', 'mine', '--conviction', '40'], { terminal: true });
      await until('the question', () => /Post it anyway\? \[y\/N\]/.test(predict.output()));
      addThreads(w, ['x', 'y', 'z']);
      // Were the lock held while the person thinks, 16 minutes of it would let cron take it over.
      if (fs.existsSync(lockFile(w))) age(lockFile(w), 16);
      const cron = await w.agent(['poll']);
      expect(cron.code, cron.stderr).toBe(0);
      expect([...posts.keys()].sort()).toEqual(['mine', 'x', 'y', 'z']);
      const cursor = w.state().cursor;
      predict.type('y\r');
      const { code } = await predict.ended;
      expect(code, predict.output()).toBe(0);
      expect(predict.output()).toMatch(/already predicted/);
      const afterPredict = w.state().cursor;
      // The state cron saved is whole: the next poll posts nothing a second time.
      expect((await w.agent(['poll'])).code).toBe(0);
      expect(Object.fromEntries(posts)).toEqual({ mine: 1, x: 1, y: 1, z: 1 });
      expect(afterPredict).toEqual(cursor);
    },
  );

  it.skipIf(!SCRIPT)('predict holds no lock while it asks; a yes then posts, once', async () => {
    const w = await registered();
    const posts = countPosts(w);
    addThreads(w, ['mine']);
    const predict = startAgent(w, ['predict', 'mine', '--conviction', '40'], { terminal: true });
    await until('the question', () => /Post it anyway\? \[y\/N\]/.test(predict.output()));
    expect(fs.existsSync(lockFile(w))).toBe(false);
    predict.type('y\r');
    const { code } = await predict.ended;
    expect(code, predict.output()).toBe(0);
    expect(Object.fromEntries(posts)).toEqual({ mine: 1 });
    expect(w.state().journal).toMatchObject({ mine: { status: 'posted' } });
    expect(fs.existsSync(lockFile(w))).toBe(false);
  });
});
