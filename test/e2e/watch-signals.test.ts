import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BULLISH, minutesAgo, registeredWorlds, type World } from './harness.js';
import { SCRIPT, startAgent, until } from './live-process.js';

// How `poll --watch` ends and what it says, as systemd (`systemctl stop`: SIGTERM, then SIGKILL after 90 s)
// and a person at a terminal (Ctrl-C) end it: at once between cycles, after the thread in hand within one,
// exit 0, its marker gone.

const registered = registeredWorlds();
const GATE = path.join(import.meta.dirname, '..', 'fixtures', 'analyzers', 'gate.mjs');
const quote = (s: string) => `'${s}'`;
const SHORT = { AGENT_TEST_SHORT_WATCH: '1' };

const marker = (w: World) => path.join(w.configDir, 'watch');
const runs = (w: World) => {
  const file = path.join(w.configDir, 'history.jsonl');
  return fs.existsSync(file)
    ? fs
        .readFileSync(file, 'utf8')
        .split('\n')
        .filter((l) => l.includes('"kind":"run"')).length
    : 0;
};

/** Resolves with how the process ended, or undefined if it has not within `ms`. */
const endedWithin = <T>(ended: Promise<T>, ms: number) =>
  Promise.race([ended, new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), ms))]);

describe.each([
  ['off a terminal', false],
  ['at a terminal', true],
])('poll --watch %s', (_where, terminal) => {
  it.skipIf(terminal && !SCRIPT).each(['SIGTERM', 'SIGINT'] as const)(
    '%s between cycles (a 300 s interval) ends it at once: exit 0, marker removed',
    async (signal) => {
      const w = await registered();
      const watcher = startAgent(w, ['poll', '--watch', '--interval', '300'], { terminal, env: SHORT });
      await until('a first cycle', () => runs(w) >= 1 && fs.existsSync(marker(w)));
      process.kill(watcher.pid(), signal);
      const ended = await endedWithin(watcher.ended, 5_000);
      watcher.child.kill('SIGKILL');
      expect(ended, watcher.output()).toEqual({ code: 0, signal: null });
      expect(fs.existsSync(marker(w))).toBe(false);
      expect(watcher.output()).not.toMatch(/unexpected|interrupted/);
    },
  );

  it.skipIf(terminal && !SCRIPT)(
    'SIGTERM within a cycle: the thread in hand is finished and posted, then it ends, exit 0',
    async () => {
      const w = await registered();
      const pidFile = path.join(w.home, 'analyzer.pid');
      const open = path.join(w.home, 'open');
      const answer = JSON.stringify({
        action: 'post',
        conviction: 0.8,
        text: 'Bullish: the gated analyzer says up, once.',
      });
      const command = [process.execPath, GATE, pidFile, open, answer].map(quote).join(' ');
      for (const [key, value] of Object.entries({ 'analyzer.command': command, analyzer: 'command' }))
        expect((await w.agent(['config', 'set', key, value])).code).toBe(0);
      w.sandbox.addThread({ id: 'inhand', text: BULLISH, project_id: 'c/bitcoin', timestamp: minutesAgo(1) });
      const watcher = startAgent(w, ['poll', '--watch', '--interval', '300'], { terminal, env: SHORT });
      await until('the analyzer at work', () => fs.existsSync(pidFile));
      process.kill(watcher.pid(), 'SIGTERM');
      await new Promise((resolve) => setTimeout(resolve, 300));
      fs.writeFileSync(open, '');
      const ended = await endedWithin(watcher.ended, 10_000);
      watcher.child.kill('SIGKILL');
      expect(ended, watcher.output()).toEqual({ code: 0, signal: null });
      expect(w.sandbox.comments().map((c) => c.thread_id)).toEqual(['inhand']);
      expect(w.state().journal).toMatchObject({ inhand: { status: 'posted' } });
      expect(fs.existsSync(marker(w))).toBe(false);
    },
  );

  it.skipIf(terminal && !SCRIPT)('says once what it does, on stderr', async () => {
    const w = await registered();
    const watcher = startAgent(w, ['poll', '--watch', '--interval', '60'], { terminal, env: SHORT });
    await until('a first cycle', () => runs(w) >= 1);
    watcher.child.kill('SIGTERM');
    await watcher.ended;
    const said = watcher.output().match(/agent: polling .+ every 60 s \(pid \d+\); .+ to stop/g) ?? [];
    expect(said, watcher.output()).toHaveLength(1);
    expect(said[0]).toContain(terminal ? 'Ctrl-C to stop' : 'SIGTERM (systemctl stop) or SIGINT to stop');
    expect(said[0]).toContain(w.configDir);
  });

  it('says nothing of itself with --json or --quiet', async () => {
    const w = await registered();
    for (const flag of ['--json', '--quiet']) {
      const before = runs(w);
      const watcher = startAgent(w, [flag, 'poll', '--watch', '--interval', '60'], { terminal, env: SHORT });
      await until('a cycle', () => runs(w) > before);
      watcher.child.kill('SIGTERM');
      await watcher.ended;
      expect(watcher.output()).not.toMatch(/polling/);
    }
  });
});

describe('poll --watch --json', () => {
  it('prints one JSON line per cycle (JSON Lines): its report, or the error it met; nothing else on stdout', async () => {
    const w = await registered();
    const watcher = startAgent(w, ['--json', 'poll', '--watch', '--interval', '0.2'], { env: SHORT });
    await until('the first cycle', () => runs(w) >= 1);
    w.sandbox.addThread({ id: 'j1', text: BULLISH, project_id: 'c/bitcoin', timestamp: minutesAgo(1) });
    await until('its post', () => w.sandbox.comments().length === 1);
    // Three times: a GET is tried three times before the cycle fails.
    let failures = 0;
    const undo = w.sandbox.intercept((req, res) => {
      if (failures === 3 || req.method !== 'GET' || !req.url?.startsWith('/thread?')) return false;
      failures += 1;
      res.writeHead(503, { 'content-type': 'application/json' }).end('{"message":"down"}');
      return true;
    });
    await until('a failed cycle, and one after it', () => failures === 3 && runs(w) >= 5);
    undo();
    watcher.child.kill('SIGTERM');
    expect((await watcher.ended).code).toBe(0);
    const lines = watcher.stdout().split('\n');
    expect(lines.pop()).toBe('');
    const cycles = lines.map((line) => JSON.parse(line));
    const reports = cycles.filter((c) => !('error' in c));
    for (const report of reports) expect(Object.keys(report).sort()).toEqual(['cursor', 'failed', 'posted', 'skipped']);
    expect(reports.flatMap((c) => c.posted.map((p: { threadId: string }) => p.threadId))).toEqual(['j1']);
    const errors = cycles.filter((c) => 'error' in c);
    expect(errors).toEqual([{ error: { code: 5, message: expect.stringContaining('503') } }]);
    expect(reports.length).toBeGreaterThanOrEqual(4);
  });
});

describe('poll --watch stopped while it waits out a 429', () => {
  const tooMany = (res: import('node:http').ServerResponse) =>
    res
      .writeHead(429, { 'retry-after': '120', 'content-type': 'application/json' })
      .end('{"error":"rate_limited","message":"slow down"}');

  it('SIGTERM during the wait of a POST answered 429 (Retry-After 120) ends it at once: exit 0, the thread stays due, the pause stored', async () => {
    const w = await registered();
    let posts = 0;
    w.sandbox.intercept((req, res) => {
      if (req.method !== 'POST' || !req.url?.startsWith('/comment/')) return false;
      posts += 1;
      tooMany(res);
      return true;
    });
    w.sandbox.addThread({ id: 'x', text: BULLISH, project_id: 'c/bitcoin', timestamp: minutesAgo(5) });
    const watcher = startAgent(w, ['poll', '--watch', '--interval', '300'], { env: SHORT });
    await until('the pause stored', () => posts === 1 && w.state().rateLimitedUntil !== undefined);
    process.kill(watcher.pid(), 'SIGTERM');
    // Waiting the pause out would take 120 s.
    const ended = await endedWithin(watcher.ended, 10_000);
    watcher.child.kill('SIGKILL');
    expect(ended, watcher.output()).toEqual({ code: 0, signal: null });
    expect(posts).toBe(1);
    // A 429 means not processed: not "posting" (read as unknown, never posted), but due, no try counted.
    expect(w.state().journal).toEqual({ x: { ts: expect.any(String), status: 'failed' } });
    expect(Date.parse(String(w.state().rateLimitedUntil))).toBeGreaterThan(Date.now() + 60_000);
    expect(fs.existsSync(marker(w))).toBe(false);
  });

  it('SIGTERM during the wait of a thread list answered 429 ends it at once, exit 0', async () => {
    const w = await registered();
    let lists = 0;
    w.sandbox.intercept((req, res) => {
      if (req.method !== 'GET' || !req.url?.startsWith('/thread?')) return false;
      lists += 1;
      tooMany(res);
      return true;
    });
    const watcher = startAgent(w, ['poll', '--watch', '--interval', '300'], { env: SHORT });
    await until('the pause stored', () => lists === 1 && w.state().rateLimitedUntil !== undefined);
    process.kill(watcher.pid(), 'SIGTERM');
    const ended = await endedWithin(watcher.ended, 10_000);
    watcher.child.kill('SIGKILL');
    expect(ended, watcher.output()).toEqual({ code: 0, signal: null });
    expect(lists).toBe(1);
    expect(fs.existsSync(marker(w))).toBe(false);
  });
});

it('a watcher stopped by SIGTERM mid-cycle is no failed poll: its run is recorded exit 0, and doctor says no FAIL', async () => {
  const w = await registered();
  let posts = 0;
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  w.sandbox.intercept(async (req) => {
    if (req.method !== 'POST' || !req.url?.startsWith('/comment/')) return false;
    posts += 1;
    // The POSTs are held until the signal has arrived: the cycle has threads left after them.
    await held;
    return false;
  });
  const cells = ['c/bitcoin', 'c/ethereum', 'c/solana'];
  // More than one batch of POSTs (8): the signal comes while the first is in hand.
  for (let i = 0; i < 12; i++)
    w.sandbox.addThread({ id: `t${i}`, text: BULLISH, project_id: cells[i % 3], timestamp: minutesAgo(14 - i) });
  const watcher = startAgent(w, ['poll', '--watch', '--interval', '300'], { env: SHORT });
  try {
    await until('the first POSTs in hand', () => posts >= 1);
  } catch (error) {
    watcher.child.kill('SIGKILL');
    throw new Error(`${error}: ${watcher.output()}`);
  }
  process.kill(watcher.pid(), 'SIGTERM');
  await new Promise((resolve) => setTimeout(resolve, 300));
  release();
  expect(await watcher.ended, watcher.output()).toEqual({ code: 0, signal: null });
  expect(posts).toBeLessThan(12);
  const summaries = fs
    .readFileSync(path.join(w.configDir, 'history.jsonl'), 'utf8')
    .split('\n')
    .filter((line) => line.includes('"kind":"run"'))
    .map((line) => JSON.parse(line).summary);
  expect(summaries.at(-1)).toMatchObject({ command: 'poll', posted: posts, exitCode: 0 });
  expect(summaries.at(-1)).not.toHaveProperty('error');
  const doctor = await w.agent(['doctor']);
  expect(doctor.stdout + doctor.stderr).not.toMatch(/FAIL.*last poll|last poll.*(130|143|signal)/);
});

/**
 * A watcher whose command analyzer never answers (its own timeout `timeoutS`), sent SIGTERM while that
 * analyzer works on the one thread: how it ended, what it said, and the analyzer's pid.
 */
async function stoppedOverSilentAnalyzer(timeoutS: string, waitMs: number, second?: NodeJS.Signals) {
  const w = await registered();
  const pidFile = path.join(w.home, 'analyzer.pid');
  const never = path.join(w.home, 'never');
  const answer = JSON.stringify({ action: 'post', conviction: 0.8, text: 'Bullish: the gated analyzer says up.' });
  const command = [process.execPath, GATE, pidFile, never, answer].map(quote).join(' ');
  const settings = { 'analyzer.command': command, analyzer: 'command', 'analyzer.timeout': timeoutS };
  for (const [key, value] of Object.entries(settings))
    expect((await w.agent(['config', 'set', key, value])).code).toBe(0);
  w.sandbox.addThread({ id: 'slow', text: BULLISH, project_id: 'c/bitcoin', timestamp: minutesAgo(1) });
  const watcher = startAgent(w, ['poll', '--watch', '--interval', '300'], { env: SHORT });
  await until('the analyzer at work', () => fs.existsSync(pidFile));
  const analyzer = Number(fs.readFileSync(pidFile, 'utf8'));
  process.kill(watcher.pid(), 'SIGTERM');
  if (second) {
    await new Promise((resolve) => setTimeout(resolve, 300));
    process.kill(watcher.pid(), second);
  }
  const ended = await endedWithin(watcher.ended, waitMs);
  watcher.child.kill('SIGKILL');
  return { w, ended, output: watcher.output(), analyzer };
}

/** Nothing posted, the thread due again as after any failed analysis (a try counted), nothing left over. */
function expectStoppedClean(w: World, analyzer: number): void {
  expect(w.sandbox.comments()).toEqual([]);
  expect(w.state().journal).toEqual({ slow: { ts: expect.any(String), status: 'failed', tries: 1 } });
  expect(() => process.kill(analyzer, 0)).toThrow();
  expect(fs.existsSync(marker(w))).toBe(false);
}

it('SIGTERM while an analyzer never answers: it ends once analyzer.timeout has passed, exit 0, nothing posted, the thread due', async () => {
  const { w, ended, output, analyzer } = await stoppedOverSilentAnalyzer('1', 10_000);
  expect(ended, output).toEqual({ code: 0, signal: null });
  expect(output).toMatch(/timed out after 1 s/);
  expectStoppedClean(w, analyzer);
});

it("SIGTERM while an analyzer still works past the stop's grace (60 s shipped, 2 s in the test build): it is stopped, exit 0, nothing posted, the thread due", async () => {
  // Its own timeout far beyond the grace: what ends it is the stop.
  const { w, ended, output, analyzer } = await stoppedOverSilentAnalyzer('120', 20_000);
  expect(ended, output).toEqual({ code: 0, signal: null });
  expectStoppedClean(w, analyzer);
}, 40_000);

it('a second signal while an analyzer works ends the watcher as that signal does, and stops the analyzer first', async () => {
  // The analyzer runs in its own process group, out of reach of a terminal's Ctrl-C: if the watcher died
  // without stopping it, it would be left running.
  const { ended, output, analyzer } = await stoppedOverSilentAnalyzer('120', 10_000, 'SIGINT');
  try {
    expect(ended, output).toEqual({ code: null, signal: 'SIGINT' });
    // Killed by the watcher before it ended: at most a zombie now (pid 1 here reaps no orphan).
    expect(running(analyzer)).toBe(false);
  } finally {
    if (running(analyzer)) process.kill(analyzer, 'SIGKILL');
  }
});

function running(pid: number): boolean {
  try {
    return !/^\S+ \(.*\) Z/.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}
