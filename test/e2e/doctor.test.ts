import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DOCTOR_CHECKS } from '../../src/commands/doctor-checks.js';
import { nodeCheck } from '../../src/commands/doctor/local-checks.js';
import { registeredWorlds, runAgent, type World } from './harness.js';
import { age, startAgent, until } from './live-process.js';

// `agent doctor`: each thing a user would otherwise debug by hand is broken here once, and the line that
// names it, with its fix, is what the test looks for.

const registered = registeredWorlds();

type Check = { name: string; status: 'ok' | 'warn' | 'fail'; detail: string; fix?: string };

async function doctor(w: World, env: Record<string, string> = {}) {
  const result = await w.agent(['doctor', '--json'], { env });
  const { checks } = JSON.parse(result.stdout) as { checks: Check[] };
  const byName = Object.fromEntries(checks.map((c) => [c.name, c]));
  return { code: result.code, stderr: result.stderr, checks, byName, text: result.stdout };
}

const editState = (w: World, change: (state: Record<string, unknown>) => void) => {
  const file = path.join(w.configDir, 'state.json');
  const state = JSON.parse(fs.readFileSync(file, 'utf8'));
  change(state);
  fs.writeFileSync(file, JSON.stringify(state), { mode: 0o600 });
};

describe('agent doctor', () => {
  it('on a healthy agent: every check ok or a warning, exit 0, one GET /agent/me, and never the key', async () => {
    const w = await registered();
    expect((await w.agent(['poll'])).code).toBe(0);
    const before = w.sandbox.requests.length;
    const { code, byName, checks } = await doctor(w);
    expect(code).toBe(0);
    // No watcher runs here and no agent is set aside: every other check has its line, in order.
    const shown = DOCTOR_CHECKS.map((c) => c.name).filter((name) => name !== 'watcher' && name !== 'set aside');
    expect(checks.map((c) => c.name)).toEqual(shown);
    for (const name of shown.filter((name) => name !== 'schedule')) expect(byName[name]?.status, name).toBe('ok');
    // Where there is no crontab program, the fix says to install cron (or use --systemd) first.
    expect(byName.schedule).toMatchObject({
      status: 'warn',
      fix: expect.stringContaining(`agent --config-dir ${w.configDir} schedule --install`),
    });
    expect(w.sandbox.requests.slice(before).map((r) => `${r.method} ${r.path}`)).toEqual(['GET /agent/me']);
    const text = await w.agent(['doctor']);
    expect(text.stdout).toMatch(/^ok {4}node +Node \d+\.\d+\.\d+/m);
    expect(text.stdout + text.stderr).not.toContain(w.state().apiKey);
  });

  it('no agent registered: the state fails with the fix, exit 1', async () => {
    const w = await registered();
    const other = path.join(w.home, 'empty');
    const result = await runAgent(['--config-dir', other, 'doctor', '--json'], w.home);
    expect(result.code).toBe(1);
    const checks = JSON.parse(result.stdout).checks as Check[];
    expect(checks.find((c) => c.name === 'state')).toMatchObject({
      status: 'fail',
      fix: expect.stringContaining(`agent --config-dir ${other} register`),
    });
  });

  it('a state file others can read fails with the chmod that fixes it', async () => {
    const w = await registered();
    fs.chmodSync(path.join(w.configDir, 'state.json'), 0o644);
    const { code, byName } = await doctor(w);
    expect(code).toBe(1);
    expect(byName.state).toMatchObject({ status: 'fail', fix: expect.stringContaining('chmod') });
  });

  it('a state file that is not JSON fails and names the file', async () => {
    const w = await registered();
    fs.writeFileSync(path.join(w.configDir, 'state.json'), '{"apiKey": ', { mode: 0o600 });
    const { code, byName } = await doctor(w);
    expect(code).toBe(1);
    expect(byName.state?.detail).toContain('state.json');
  });

  it('a key the service rejects fails with the fix', async () => {
    const w = await registered();
    w.sandbox.intercept((_req, res) => {
      res.writeHead(401, { 'content-type': 'application/json' }).end('{"message":"invalid key"}');
      return true;
    });
    const { code, byName } = await doctor(w);
    expect(code).toBe(1);
    expect(byName.service).toMatchObject({
      status: 'fail',
      detail: expect.stringContaining('rejected the key'),
      fix: expect.stringContaining('agent register --force'),
    });
  });

  it('a service that is not there fails, naming it', async () => {
    const w = await registered();
    await w.sandbox.close();
    const { code, byName } = await doctor(w, { AGENT_TEST_REQUEST_TIMEOUT_MS: '500' });
    expect(code).toBe(1);
    expect(byName.service).toMatchObject({ status: 'fail', detail: expect.stringContaining('127.0.0.1') });
  });

  it("a clock ten minutes off the service's Date header is a warning with the fix", async () => {
    const w = await registered();
    w.sandbox.intercept((_req, res) => {
      res.setHeader('date', new Date(Date.now() - 10 * 60_000).toUTCString());
      return false;
    });
    const { byName } = await doctor(w);
    expect(byName.clock).toMatchObject({
      status: 'warn',
      detail: expect.stringMatching(/ahead of the service's/),
      fix: expect.stringContaining('time'),
    });
  });

  it('a pause the service asked for, and a lock left by a dead run, are warnings', async () => {
    const w = await registered();
    editState(w, (state) => {
      state.rateLimitedUntil = new Date(Date.now() + 30 * 60_000).toISOString();
    });
    fs.writeFileSync(
      path.join(w.configDir, 'lock'),
      JSON.stringify({ pid: 2 ** 22 + 7, startedAt: new Date().toISOString() }),
      { mode: 0o600 },
    );
    const before = w.sandbox.requests.length;
    const { code, byName } = await doctor(w);
    expect(code).toBe(0);
    expect(w.sandbox.requests.length).toBe(before);
    expect(byName.service).toMatchObject({ status: 'warn', detail: expect.stringContaining('pause') });
    expect(byName['rate limit']).toMatchObject({
      status: 'warn',
      detail: expect.stringContaining('nothing is sent until'),
    });
    expect(byName.lock).toMatchObject({ status: 'warn', detail: expect.stringContaining('a run that is gone') });
  });

  it('a 429 on its one request is stored as every command stores it: the next poll sends nothing', async () => {
    const w = await registered();
    w.sandbox.addThread({
      id: 'a',
      text: 'Spot ETF inflows hit a record as whales accumulate.',
      project_id: 'c/bitcoin',
    });
    const stop = w.sandbox.intercept((req, res) => {
      if (req.url !== '/agent/me') return false;
      res.writeHead(429, { 'retry-after': '120', 'content-type': 'application/json' }).end('{"message":"slow down"}');
      return true;
    });
    const { byName } = await doctor(w);
    stop();
    expect(byName.service).toMatchObject({ status: 'warn', detail: expect.stringContaining('rate limited') });
    expect(byName['rate limit']).toMatchObject({
      status: 'warn',
      detail: expect.stringContaining('nothing is sent until'),
    });
    expect(Date.parse(String(w.state().rateLimitedUntil))).toBeGreaterThan(Date.now() + 60_000);
    const before = w.sandbox.requests.length;
    const poll = await w.agent(['poll']);
    expect(poll.code).toBe(0);
    expect(w.sandbox.requests.length).toBe(before);
    expect(w.sandbox.comments()).toEqual([]);
  });

  it('a watcher that polls stands for the schedule; one that is overdue fails, with the fix', async () => {
    const w = await registered();
    const watcher = startAgent(w, ['poll', '--watch', '--interval', '30'], { env: { AGENT_TEST_SHORT_WATCH: '1' } });
    const file = path.join(w.configDir, 'watch');
    try {
      await until('the marker', () => fs.existsSync(file));
      let { code, byName, checks } = await doctor(w);
      expect(code).toBe(0);
      expect(checks.map((c) => c.name)).toContain('watcher');
      expect(byName.watcher).toMatchObject({ status: 'ok' });
      expect(byName.watcher?.detail).toContain(`pid ${watcher.pid()}`);
      expect(byName.schedule).toMatchObject({ status: 'ok', detail: expect.stringContaining('the watcher polls') });

      // Stopped (Ctrl-Z), its latest cycle begun longer ago than it promised.
      process.kill(watcher.pid(), 'SIGSTOP');
      age(file, 1);
      ({ code, byName } = await doctor(w));
      expect(code).toBe(1);
      expect(byName.watcher).toMatchObject({
        status: 'fail',
        fix: expect.stringContaining(`kill -CONT ${watcher.pid()}`),
      });
      expect(byName.watcher?.detail).toMatch(/should have polled by .+ and has not/);
      expect(byName.schedule).toMatchObject({
        status: 'warn',
        fix: expect.stringContaining(`agent --config-dir ${w.configDir} schedule --install`),
      });
    } finally {
      process.kill(watcher.pid(), 'SIGCONT');
      watcher.child.kill('SIGKILL');
    }
  });

  it('a last poll that failed fails, with its error', async () => {
    const w = await registered();
    const run = {
      ts: new Date().toISOString(),
      kind: 'run',
      summary: {
        command: 'poll',
        posted: 0,
        skipped: 0,
        failed: 1,
        exitCode: 5,
        elapsedMs: 10,
        error: 'the service failed (503)',
      },
    };
    fs.writeFileSync(path.join(w.configDir, 'history.jsonl'), `${JSON.stringify(run)}\n`, { mode: 0o600 });
    const { code, byName } = await doctor(w);
    expect(code).toBe(1);
    expect(byName['last poll']).toMatchObject({
      status: 'fail',
      detail: expect.stringContaining('the service failed (503)'),
    });
  });

  it('an analyzer command that is not there, and a model server that does not answer, fail', async () => {
    const w = await registered();
    fs.writeFileSync(
      path.join(w.configDir, 'config.json'),
      JSON.stringify({ analyzer: 'command', 'analyzer.command': '/nonexistent/analyzer' }),
      { mode: 0o600 },
    );
    expect((await doctor(w)).byName.analyzer).toMatchObject({
      status: 'fail',
      detail: expect.stringContaining('/nonexistent/analyzer'),
    });
    fs.writeFileSync(
      path.join(w.configDir, 'config.json'),
      JSON.stringify({ analyzer: 'llm', 'llm.base-url': 'http://127.0.0.1:1/v1', 'llm.model': 'tiny' }),
      { mode: 0o600 },
    );
    expect((await doctor(w)).byName.analyzer).toMatchObject({
      status: 'fail',
      detail: expect.stringContaining('does not answer'),
      fix: expect.stringContaining('analyzer builtin'),
    });
  });

  it('a Node older than 20.19 fails; 20.19 and later are fine', () => {
    expect(nodeCheck('18.20.4')).toMatchObject({ status: 'fail' });
    expect(nodeCheck('20.18.3')).toMatchObject({ status: 'fail' });
    expect(nodeCheck('20.19.0')).toMatchObject({ status: 'ok' });
    expect(nodeCheck('24.1.0')).toMatchObject({ status: 'ok' });
  });
});
