import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BULLISH, minutesAgo, registeredWorlds, TEST_BIN, type World } from './harness.js';
import { startAgent } from './live-process.js';

// `agent poll --watch`, run as a person or a container would: the test build lets cycles come a fraction
// of a second apart (AGENT_TEST_SHORT_WATCH); the shipped command allows 30 s at least.

const registered = registeredWorlds();

function startWatcher(
  w: World,
  interval: string,
): { child: ChildProcess; ended: Promise<number | null>; output: () => string } {
  const child = spawn(
    process.execPath,
    [TEST_BIN, '--config-dir', w.configDir, 'poll', '--watch', '--interval', interval],
    {
      env: { HOME: w.home, PATH: process.env.PATH ?? '/usr/bin:/bin', AGENT_TEST_SHORT_WATCH: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const ended = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, ended, output: () => output };
}

async function until(what: string, condition: () => boolean): Promise<void> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > 15_000) throw new Error(`not in time: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const marker = (w: World) => path.join(w.configDir, 'watch');
// When the watcher's next cycle is due: its latest cycle's start (the marker's mtime) plus what it allows.
const dueBy = (w: World) =>
  fs.statSync(marker(w)).mtimeMs + JSON.parse(fs.readFileSync(marker(w), 'utf8')).overdueAfterMs;
const runs = (w: World) =>
  fs.existsSync(path.join(w.configDir, 'history.jsonl'))
    ? fs
        .readFileSync(path.join(w.configDir, 'history.jsonl'), 'utf8')
        .split('\n')
        .filter((l) => l.includes('"kind":"run"')).length
    : 0;

describe('agent poll --watch', () => {
  it('posts what each cycle finds, keeps a cron poll out of its way, and ends on SIGTERM with exit 0', async () => {
    const w = await registered();
    const watcher = startWatcher(w, '0.2');
    await until('the marker', () => fs.existsSync(marker(w)));
    w.sandbox.addThread({ id: 'first', text: BULLISH, project_id: 'c/bitcoin', timestamp: minutesAgo(2) });
    await until('the first post', () => w.sandbox.comments().some((c) => c.thread_id === 'first'));
    w.sandbox.addThread({ id: 'second', text: BULLISH, project_id: 'c/solana', timestamp: minutesAgo(1) });
    await until('the second post', () => w.sandbox.comments().some((c) => c.thread_id === 'second'));

    const cron = await w.agent(['poll']);
    expect(cron).toMatchObject({ code: 0, stdout: '', stderr: '' });
    const told = await w.agent(['poll', '-v']);
    expect(told.stderr).toMatch(/a watcher \(pid \d+\) polls this config dir; nothing to do/);

    await until('a few cycles', () => runs(w) >= 3);
    watcher.child.kill('SIGTERM');
    expect(await watcher.ended).toBe(0);
    expect(fs.existsSync(marker(w))).toBe(false);
    expect(
      w.sandbox
        .comments()
        .map((c) => c.thread_id)
        .sort(),
    ).toEqual(['first', 'second']);
    expect(watcher.output()).not.toMatch(/unexpected|failed/);
  });

  it('a predict by hand works between cycles', async () => {
    const w = await registered();
    const watcher = startWatcher(w, '1');
    await until('the marker', () => fs.existsSync(marker(w)));
    await until('a first cycle', () => runs(w) >= 1);
    w.sandbox.addThread({ id: 'manual', text: BULLISH, project_id: 'c/bitcoin', timestamp: minutesAgo(1) });
    let result = await w.agent(['predict', 'manual', '--conviction', '1']);
    // Should it meet a cycle in progress, it is told so (exit 5), and the next try falls between cycles.
    for (let i = 0; i < 3 && result.code === 5; i += 1)
      result = await w.agent(['predict', 'manual', '--conviction', '1']);
    expect(result.code).toBe(0);
    watcher.child.kill('SIGINT');
    expect(await watcher.ended).toBe(0);
    expect(w.sandbox.comments().filter((c) => c.thread_id === 'manual')).toHaveLength(1);
  });

  it('a watcher killed outright does not silence cron: its marker names a process that is gone', async () => {
    const w = await registered();
    const watcher = startWatcher(w, '1');
    // Between cycles: killed inside one, it could leave the run lock half-written, which holds a run off
    // for 10 s (state/lock.ts), a different story.
    await until('a first cycle', () => runs(w) >= 1);
    watcher.child.kill('SIGKILL');
    await watcher.ended;
    expect(fs.existsSync(marker(w))).toBe(true);
    w.sandbox.addThread({ id: 'after', text: BULLISH, project_id: 'c/bitcoin', timestamp: minutesAgo(1) });
    const cron = await w.agent(['poll']);
    expect(cron.code).toBe(0);
    expect(w.sandbox.comments().map((c) => c.thread_id)).toContain('after');
  });

  it('a stopped watcher does not silence cron: once it is overdue, cron polls and says why', async () => {
    const w = await registered();
    const watcher = startWatcher(w, '0.2');
    await until('a first cycle', () => runs(w) >= 1);
    watcher.child.kill('SIGSTOP'); // Ctrl-Z in the terminal it was started from
    try {
      const promised = dueBy(w);
      w.sandbox.addThread({ id: 'meanwhile', text: BULLISH, project_id: 'c/bitcoin', timestamp: minutesAgo(1) });
      await until('the watcher is overdue', () => Date.now() > promised + 100);
      const cron = await w.agent(['poll']);
      expect(cron.code).toBe(0);
      expect(cron.stderr).toMatch(/the watcher \(pid \d+\) should have polled by .+; this poll does the work/);
      expect(w.sandbox.comments().map((c) => c.thread_id)).toEqual(['meanwhile']);
    } finally {
      watcher.child.kill('SIGCONT');
    }
    // Woken up, it goes on beside cron's work without posting that thread again.
    const after = runs(w) + 2;
    await until('two more cycles', () => runs(w) >= after);
    watcher.child.kill('SIGTERM');
    expect(await watcher.ended).toBe(0);
    expect(w.sandbox.comments().map((c) => c.thread_id)).toEqual(['meanwhile']);
  });

  it("a marker copied into another config dir (cp -a) silences neither that dir's cron nor fools its doctor", async () => {
    const a = await registered();
    const b = await registered();
    const watcher = startWatcher(a, '86400');
    try {
      await until('a first cycle', () => runs(a) >= 1);
      // As cp -a does: the content and the modification time.
      fs.copyFileSync(marker(a), marker(b));
      const { mtime } = fs.statSync(marker(a));
      fs.utimesSync(marker(b), mtime, mtime);
      b.sandbox.addThread({ id: 'b1', text: BULLISH, project_id: 'c/bitcoin', timestamp: minutesAgo(1) });
      const cron = await b.agent(['-v', 'poll']);
      expect(cron.code).toBe(0);
      expect(cron.stderr).not.toMatch(/a watcher .* polls this config dir/);
      expect(b.sandbox.comments().map((c) => c.thread_id)).toEqual(['b1']);
      const doctor = await b.agent(['doctor']);
      expect(doctor.stdout + doctor.stderr).not.toMatch(/poll --watch \(pid \d+, since .+\) polls/);
      // The watcher's own dir still leaves the work to it.
      const own = await a.agent(['-v', 'poll']);
      expect(own.stderr).toMatch(/a watcher \(pid \d+\) polls this config dir; nothing to do/);
    } finally {
      watcher.child.kill('SIGTERM');
      await watcher.ended;
    }
  });

  it('a second watcher takes over from a stopped one, saying so', async () => {
    const w = await registered();
    const first = startWatcher(w, '0.2');
    await until('a first cycle', () => runs(w) >= 1);
    first.child.kill('SIGSTOP');
    try {
      const promised = dueBy(w);
      await until('the first watcher is overdue', () => Date.now() > promised + 100);
      const second = startWatcher(w, '0.2');
      await until(
        'the second watcher named',
        () => JSON.parse(fs.readFileSync(marker(w), 'utf8')).pid === second.child.pid,
      );
      expect(second.output()).toMatch(/should have polled by .+; this watcher takes over/);
      second.child.kill('SIGTERM');
      expect(await second.ended).toBe(0);
    } finally {
      first.child.kill('SIGCONT');
    }
    first.child.kill('SIGTERM');
    expect(await first.ended).toBe(0);
  });

  it('a second watcher on the same config dir is refused while the first lives', async () => {
    const w = await registered();
    const first = startWatcher(w, '1');
    await until('the marker', () => fs.existsSync(marker(w)));
    const second = await w.agent(['poll', '--watch', '--interval', '0.2'], { env: { AGENT_TEST_SHORT_WATCH: '1' } });
    expect(second.code).toBe(5);
    expect(second.stderr).toContain('another watcher');
    first.child.kill('SIGTERM');
    expect(await first.ended).toBe(0);
  });

  it.each([
    [['--watch', '--interval', '10']],
    [['--watch', '--interval', 'soon']],
    [['--watch', '--dry-run']],
    [['--interval', '60']],
  ])('poll %j is a usage error (exit 2)', async (args) => {
    const w = await registered();
    const result = await w.agent(['poll', ...args]);
    expect(result.code).toBe(2);
  });

  describe('an error no wait can fix ends the watch with its exit code; cron polls are not left standing aside', () => {
    const answerList = (w: World, status: number, body: string) =>
      w.sandbox.intercept((req, res) => {
        if (req.method !== 'GET' || !req.url?.startsWith('/thread?')) return false;
        res.writeHead(status, { 'content-type': 'application/json' }).end(body);
        return true;
      });
    it.each([
      ['a different AGENT_BASE_URL in its environment', 2, /registered with .+; its key is never sent elsewhere/],
      ['NODE_TLS_REJECT_UNAUTHORIZED=0 with an https service', 2, /NODE_TLS_REJECT_UNAUTHORIZED=0 turns off/],
      ['a key the service rejects (401), after a good cycle', 3, /401|key/],
      ['a page size the service refuses (400), after a good cycle', 2, /refused|400|limit/],
    ])('%s: exit %i, said once, marker removed', async (what, code, said) => {
      const w = await registered();
      const env: Record<string, string> = { AGENT_TEST_SHORT_WATCH: '1' };
      if (what.includes('AGENT_BASE_URL')) env.AGENT_BASE_URL = 'http://127.0.0.1:9';
      if (what.includes('https')) {
        env.NODE_TLS_REJECT_UNAUTHORIZED = '0';
        const file = path.join(w.configDir, 'state.json');
        const state = JSON.parse(fs.readFileSync(file, 'utf8'));
        fs.writeFileSync(file, JSON.stringify({ ...state, baseUrl: state.baseUrl.replace('http:', 'https:') }));
      }
      const watcher = startAgent(w, ['poll', '--watch', '--interval', '0.2'], { env });
      if (what.includes('after a good cycle')) {
        await until('a first cycle', () => runs(w) >= 1);
        if (what.includes('401')) answerList(w, 401, '{"message":"invalid api key"}');
        else answerList(w, 400, '{"error":"validation_error","message":"limit too large"}');
      }
      const ended = await Promise.race([
        watcher.ended,
        new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 10_000)),
      ]);
      watcher.child.kill('SIGKILL');
      expect(ended?.code, watcher.output()).toBe(code);
      expect(watcher.output()).toMatch(said);
      expect(watcher.output()).not.toMatch(/the next one tries again/);
      expect(fs.existsSync(marker(w))).toBe(false);
    });

    it('a temporary failure (the service down) is said, and the next cycle goes on', async () => {
      const w = await registered();
      const watcher = startAgent(w, ['poll', '--watch', '--interval', '0.2'], { env: { AGENT_TEST_SHORT_WATCH: '1' } });
      await until('a first cycle', () => runs(w) >= 1);
      const undo = answerList(w, 503, '{"message":"down for maintenance"}');
      await until('a failed cycle', () => /this cycle failed: .+; the next one tries again/.test(watcher.output()));
      undo();
      w.sandbox.addThread({ id: 'back', text: BULLISH, project_id: 'c/bitcoin', timestamp: minutesAgo(1) });
      await until('the post after it', () => w.sandbox.comments().some((c) => c.thread_id === 'back'));
      watcher.child.kill('SIGTERM');
      expect((await watcher.ended).code).toBe(0);
    });
  });

  describe('a watch marker is believed only for a pid that is that watcher: a forged or stale one does not silence cron', () => {
    /** A marker as a watcher writes it, with its latest cycle begun `cycleAt`. */
    function forge(w: World, content: Record<string, unknown>, cycleAt = new Date()): void {
      fs.writeFileSync(
        marker(w),
        JSON.stringify({ startedAt: new Date().toISOString(), overdueAfterMs: 600_000, ...content }),
        {
          mode: 0o600,
        },
      );
      fs.utimesSync(marker(w), cycleAt, cycleAt);
    }
    const startOf = (pid: number) => fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[19];

    it.each([
      ['the pid of an unrelated live process (sleep)', 'sleep'],
      ['the pid of sleep, with its start time copied from /proc', 'sleep-start'],
      ['pid -1', -1],
      ['pid 1', 1],
    ])('%s: cron polls, and doctor advises no signal', async (_what, who) => {
      const w = await registered();
      const sleep = spawn('sleep', ['60'], { stdio: 'ignore' });
      try {
        const pid = typeof who === 'number' ? who : sleep.pid!;
        forge(w, { pid, ...(who === 'sleep-start' ? { startTime: startOf(pid) } : {}) });
        w.sandbox.addThread({ id: 'due', text: BULLISH, project_id: 'c/bitcoin', timestamp: minutesAgo(1) });
        const cron = await w.agent(['poll']);
        expect(cron.code, cron.stderr).toBe(0);
        expect(w.sandbox.comments().map((c) => c.thread_id)).toEqual(['due']);
        const doctor = await w.agent(['doctor']);
        expect(doctor.stdout).not.toMatch(/kill|watcher/);
      } finally {
        sleep.kill('SIGKILL');
      }
    });

    it.each([
      ['claims a window of 30 years, its latest cycle 25 h ago', { overdueAfterMs: 1e12 }, -25 * 60],
      ['is dated ten years ahead', {}, 10 * 365 * 24 * 60],
    ])('the marker of a stopped watcher that %s: cron polls', async (what, claim, minutes) => {
      const w = await registered();
      const watcher = startWatcher(w, '0.2');
      await until('a first cycle', () => runs(w) >= 1);
      watcher.child.kill('SIGSTOP');
      try {
        const written = JSON.parse(fs.readFileSync(marker(w), 'utf8'));
        forge(w, { ...written, ...claim }, new Date(Date.now() + minutes * 60_000));
        w.sandbox.addThread({ id: 'due', text: BULLISH, project_id: 'c/bitcoin', timestamp: minutesAgo(1) });
        const cron = await w.agent(['poll']);
        expect(cron.code, cron.stderr).toBe(0);
        expect(w.sandbox.comments().map((c) => c.thread_id)).toEqual(['due']);
        const doctor = await w.agent(['doctor']);
        // The pid is that watcher: a stopped one is named, with the signal that wakes it.
        if (what.includes('window'))
          expect(doctor.stdout).toMatch(new RegExp(`kill -CONT ${watcher.child.pid} if it was stopped`));
        else expect(doctor.stdout).not.toMatch(/kill/);
      } finally {
        watcher.child.kill('SIGCONT');
      }
      watcher.child.kill('SIGTERM');
      expect(await watcher.ended).toBe(0);
    });
  });
});
