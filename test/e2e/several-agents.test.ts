import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  BULLISH,
  collected,
  createWorld,
  fakeCrontab,
  minutesAgo,
  modeOf,
  PROFILE_FLAGS,
  runAgent,
  type RunOptions,
  TEST_BIN,
  type World,
} from './harness.js';
import { commandsIn, runPrinted } from './printed-command.js';
import { atTerminal, SCRIPT, stopTerminals } from './terminal.js';

// Several agents on one machine, as a user sets them up: each made with --agent (no --config-dir
// anywhere), scheduled from cron (a crontab program of the test's own, keeping its table in a file),
// listed with `agent list`, and polled by one `poll --watch --all`.

let world: World | undefined;
afterEach(async () => {
  stopTerminals();
  await world?.close();
  world = undefined;
});

interface Machine {
  w: World;
  /** PATH with the test's crontab first. */
  env: Record<string, string>;
  crontab: () => string;
  dirOf: (name: string) => string;
  agent: (args: string[], options?: RunOptions) => ReturnType<typeof runAgent>;
  register: (name: string) => ReturnType<typeof runAgent>;
  keyOf: (name: string) => string;
}

async function machine(): Promise<Machine> {
  const w = await createWorld();
  world = w;
  const { env, table } = fakeCrontab(w.home);
  const dirOf = (name: string) => path.join(w.home, '.config', 'prediction-agent', 'agents', name);
  const agent = (args: string[], options: RunOptions = {}) =>
    runAgent(args, w.home, { ...options, env: { ...env, ...options.env } });
  return {
    w,
    env,
    crontab: () => (fs.existsSync(table) ? fs.readFileSync(table, 'utf8') : ''),
    dirOf,
    agent,
    register: (name) =>
      agent(['--agent', name, 'register', '--base-url', w.sandbox.url, '--name', `${name}-agent`, ...PROFILE_FLAGS]),
    keyOf: (name) => JSON.parse(fs.readFileSync(path.join(dirOf(name), 'state.json'), 'utf8')).apiKey,
  };
}

interface Row {
  configDir: string;
  name: string | null;
  registered: boolean;
  schedule: { kind: string; interval: number | null; pid?: number };
  lastPoll: null | { at: string; exitCode: number; posted: number; skipped: number; failed: number; error?: string };
  posts24h: number;
  honey: number | null;
  wax: number | null;
  hitRate: number | null;
  health: { state: string; reason?: string };
}

async function listed(m: Machine): Promise<{ code: number | null; rows: Map<string, Row>; stderr: string }> {
  const result = await m.agent(['list', '--json']);
  const rows = (JSON.parse(result.stdout).agents as Row[]).map((row) => [row.configDir, row] as const);
  return { code: result.code, rows: new Map(rows), stderr: result.stderr };
}

const posts = (m: Machine, name: string) =>
  m.w.sandbox.requests.filter(
    (r) => r.method === 'POST' && r.path.startsWith('/comment/') && r.headers['x-api-key'] === m.keyOf(name),
  ).length;

describe('agents made with --agent', () => {
  it('register creates agents/<name> (mode 700) and its hints name --agent; pasted, they act on that agent', async () => {
    const m = await machine();
    const made = await m.register('alpha');
    expect(made.code, made.stderr).toBe(0);
    expect(modeOf(m.dirOf('alpha'))).toBe('700');
    expect(modeOf(path.join(m.dirOf('alpha'), 'state.json'))).toBe('600');
    const next = commandsIn(`${made.stdout}${made.stderr}`);
    expect(next).toEqual(['agent --agent alpha poll --dry-run', 'agent --agent alpha schedule --install']);
    const env = { HOME: m.w.home, ...m.env };
    expect((await runPrinted(next[0]!, env)).code).toBe(0);
    const scheduled = await runPrinted(next[1]!, env);
    expect(scheduled.code, scheduled.stderr).toBe(0);
    // cron runs the line with the config dir in it: the schedule remembers which agent it polls.
    expect(m.crontab()).toContain(`--config-dir ${m.dirOf('alpha')} poll --log ${m.dirOf('alpha')}/poll.log`);
    const shown = await m.agent(['--agent', 'alpha', 'schedule']);
    expect(shown.stdout).toContain(m.dirOf('alpha'));
    const config = await m.agent(['--agent', 'alpha', 'config', 'set', 'analyzer', 'command']);
    expect(config.code).toBe(2);
    expect(config.stderr).toContain('agent --agent alpha config set');
  });

  it('--agent with --config-dir or AGENT_CONFIG_DIR is a usage error naming both; so is a name that is no file name', async () => {
    const m = await machine();
    const both = await m.agent(['--agent', 'alpha', '--config-dir', m.w.configDir, 'me']);
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/--agent and --config-dir cannot go together/);
    const env = await m.agent(['--agent', 'alpha', 'me'], { env: { AGENT_CONFIG_DIR: m.w.configDir } });
    expect(env.code).toBe(2);
    expect(env.stderr).toMatch(/--agent and AGENT_CONFIG_DIR cannot go together/);
    for (const bad of ['..', '.', 'a/b', '-x', 'x'.repeat(33), '']) {
      const refused = await m.agent([`--agent=${bad}`, 'me']);
      expect(refused.code, bad).toBe(2);
      expect(refused.stderr).toMatch(/--agent takes a name/);
    }
    expect(fs.existsSync(path.join(m.w.home, '.config'))).toBe(false);
  });
});

describe('agent list', () => {
  it('lists two scheduled agents with their rows; exit 0; --json field by field', async () => {
    const m = await machine();
    expect((await m.register('alpha')).code).toBe(0);
    expect((await m.register('beta')).code).toBe(0);
    expect((await m.agent(['--agent', 'alpha', 'schedule', '--install'])).code).toBe(0);
    expect((await m.agent(['--agent', 'beta', 'schedule', '--install', '--every', '10'])).code).toBe(0);
    m.w.sandbox.addThread({ id: 't1', text: BULLISH, project_id: 'c/bitcoin', timestamp: minutesAgo(1) });
    const polled = await m.agent(['--agent', 'alpha', 'poll']);
    expect(polled.code, polled.stderr).toBe(0);
    expect(posts(m, 'alpha')).toBe(1);
    const me = JSON.parse((await m.agent(['--agent', 'alpha', 'me', '--json'])).stdout);

    const { code, rows, stderr } = await listed(m);
    expect(code, stderr).toBe(0);
    expect([...rows.keys()].sort()).toEqual([m.dirOf('alpha'), m.dirOf('beta')]);
    const alpha = rows.get(m.dirOf('alpha'))!;
    expect(alpha.name).toBe('alpha-agent');
    expect(alpha.registered).toBe(true);
    expect(alpha.schedule).toEqual({ kind: 'cron', interval: 5 });
    expect(alpha.lastPoll).toMatchObject({ exitCode: 0, posted: 1, skipped: 0, failed: 0 });
    expect(Date.now() - Date.parse(alpha.lastPoll!.at)).toBeLessThan(60_000);
    expect(alpha.posts24h).toBe(1);
    expect(alpha.honey).toBe(me.honey);
    expect(alpha.wax).toBe(me.wax);
    expect(alpha.hitRate).toBeNull();
    expect(alpha.health.state).toBe('ok');
    const beta = rows.get(m.dirOf('beta'))!;
    expect(beta).toMatchObject({
      name: 'beta-agent',
      registered: true,
      schedule: { kind: 'cron', interval: 10 },
      lastPoll: null,
      posts24h: 0,
      honey: null,
      wax: null,
      hitRate: null,
      health: { state: 'unknown' },
    });

    // The table: one row each, its columns lined up.
    const table = await m.agent(['agents']);
    expect(table.code).toBe(0);
    const lines = table.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[1]).toMatch(/^alpha-agent +~\/\.config\/prediction-agent\/agents\/alpha +cron every 5 min +.*ok/);
    expect(lines[2]).toMatch(/^beta-agent +~\/\.config\/prediction-agent\/agents\/beta +cron every 10 min +never/);
    expect(lines[1]!.indexOf('cron')).toBe(lines[2]!.indexOf('cron'));
  });

  it('a broken agent (its state corrupted, or its key rejected) makes list exit 1, naming it', async () => {
    const m = await machine();
    expect((await m.register('alpha')).code).toBe(0);
    expect((await m.register('beta')).code).toBe(0);
    fs.writeFileSync(path.join(m.dirOf('beta'), 'state.json'), '{"version": 1, "apiKey": ', { mode: 0o600 });
    const broken = await listed(m);
    expect(broken.code).toBe(1);
    expect(broken.rows.get(m.dirOf('alpha'))!.health.state).toBe('unknown');
    expect(broken.rows.get(m.dirOf('beta'))).toMatchObject({ registered: false, health: { state: 'failing' } });
    expect(broken.rows.get(m.dirOf('beta'))!.health.reason).toContain('state.json');
    const text = await m.agent(['list']);
    expect(text.code).toBe(1);
    expect(text.stderr).toContain(m.dirOf('beta'));

    // A key the service rejects fails at once (exit 3 is not a passing failure).
    const key = m.keyOf('alpha');
    m.w.sandbox.intercept((req, res) => {
      if (req.headers['x-api-key'] !== key) return false;
      res.writeHead(401, { 'content-type': 'application/json' }).end('{"message":"invalid api key"}');
      return true;
    });
    m.w.sandbox.addThread({ id: 't1', text: BULLISH, project_id: 'c/bitcoin', timestamp: minutesAgo(1) });
    expect((await m.agent(['--agent', 'alpha', 'poll'])).code).toBe(3);
    fs.rmSync(m.dirOf('beta'), { recursive: true });
    const rejected = await listed(m);
    expect(rejected.code).toBe(1);
    expect(rejected.rows.get(m.dirOf('alpha'))).toMatchObject({
      registered: true,
      lastPoll: { exitCode: 3 },
      health: { state: 'failing' },
    });
  });

  it('with no agents: says so and how to register one, exit 0', async () => {
    const m = await machine();
    const none = await m.agent(['list']);
    expect(none.code).toBe(0);
    expect(none.stdout).toMatch(/no agents/i);
    expect(none.stdout).toContain('agent register');
    const json = await m.agent(['list', '--json']);
    expect(JSON.parse(json.stdout)).toEqual({ agents: [] });
  });
});

describe('agent poll --watch --all', () => {
  function startAll(m: Machine, extra: string[] = []) {
    const child = spawn(process.execPath, [TEST_BIN, 'poll', '--watch', '--all', '--interval', '0.2', ...extra], {
      env: { HOME: m.w.home, ...m.env, AGENT_TEST_SHORT_WATCH: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    return { child, done: collected(child) };
  }

  async function until(what: string, condition: () => boolean): Promise<void> {
    const started = Date.now();
    while (!condition()) {
      if (Date.now() - started > 15_000) throw new Error(`not in time: ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  it('polls every registered agent in turn, each once per thread, under its own marker; SIGTERM ends it, exit 0', async () => {
    const m = await machine();
    expect((await m.register('alpha')).code).toBe(0);
    expect((await m.register('beta')).code).toBe(0);
    const marker = (name: string) => path.join(m.dirOf(name), 'watch');
    const watcher = startAll(m);
    await until('both markers', () => fs.existsSync(marker('alpha')) && fs.existsSync(marker('beta')));
    m.w.sandbox.addThread({ id: 't1', text: BULLISH, project_id: 'c/bitcoin', timestamp: minutesAgo(1) });
    await until('a post from each', () => posts(m, 'alpha') === 1 && posts(m, 'beta') === 1);
    // A cron poll of either steps aside; list and doctor see the watcher.
    const cron = await m.agent(['--agent', 'beta', 'poll', '-v']);
    expect(cron.code).toBe(0);
    expect(cron.stderr).toMatch(/a watcher \(pid \d+\) polls this config dir/);
    const { rows } = await listed(m);
    expect(rows.get(m.dirOf('alpha'))!.schedule).toMatchObject({ kind: 'watcher', pid: watcher.child.pid });
    expect(rows.get(m.dirOf('beta'))!.schedule).toMatchObject({ kind: 'watcher', pid: watcher.child.pid });
    const runsOf = (name: string) =>
      fs
        .readFileSync(path.join(m.dirOf(name), 'history.jsonl'), 'utf8')
        .split('\n')
        .filter((l) => l.includes('"kind":"run"')).length;
    const before = runsOf('alpha');
    await until('more cycles', () => runsOf('alpha') >= before + 2 && runsOf('beta') >= before + 2);
    // An agent registered while it runs is taken up at the next round.
    expect((await m.register('gamma')).code).toBe(0);
    await until('gamma posts', () => posts(m, 'gamma') === 1);
    watcher.child.kill('SIGTERM');
    const ended = await watcher.done;
    expect(ended.code, ended.stderr).toBe(0);
    expect(ended.stderr).toContain(`[gamma] agent: found ${m.dirOf('gamma')}; polling it too`);
    expect(ended.stderr).not.toContain('[beta] agent: found');
    expect(posts(m, 'alpha')).toBe(1);
    expect(posts(m, 'beta')).toBe(1);
    expect(posts(m, 'gamma')).toBe(1);
    expect(fs.existsSync(marker('alpha'))).toBe(false);
    expect(fs.existsSync(marker('beta'))).toBe(false);
    expect(fs.existsSync(marker('gamma'))).toBe(false);
  });

  it.skipIf(!SCRIPT)('at a terminal, each post and summary says whose it is, as the README promises', async () => {
    const m = await machine();
    expect((await m.register('alpha')).code).toBe(0);
    expect((await m.register('beta')).code).toBe(0);
    m.w.sandbox.addThread({ id: 't1', text: BULLISH, project_id: 'c/bitcoin', timestamp: minutesAgo(1) });
    const screen = atTerminal(['poll', '--watch', '--all'], m.w.home, m.env);
    await screen.waitFor(/^\[beta\] 1 posted, 0 skipped, 0 failed/m);
    expect(screen.shown()).toMatch(/\[alpha\] posted +[+-]\d/);
    expect(screen.shown()).toMatch(/\[beta\] posted +[+-]\d/);
    expect(screen.shown()).toMatch(/^\[alpha\] 1 posted, 0 skipped, 0 failed/m);
    screen.type('\u0003');
    expect(await screen.exited).toBe(0);
  });

  it('an agent whose key is rejected is set aside (its marker removed, for cron); the others go on', async () => {
    const m = await machine();
    expect((await m.register('alpha')).code).toBe(0);
    expect((await m.register('beta')).code).toBe(0);
    const key = m.keyOf('beta');
    m.w.sandbox.intercept((req, res) => {
      if (req.headers['x-api-key'] !== key) return false;
      res.writeHead(401, { 'content-type': 'application/json' }).end('{"message":"invalid api key"}');
      return true;
    });
    const watcher = startAll(m);
    m.w.sandbox.addThread({ id: 't1', text: BULLISH, project_id: 'c/bitcoin', timestamp: minutesAgo(2) });
    await until('alpha posts', () => posts(m, 'alpha') === 1);
    await until('beta set aside', () => !fs.existsSync(path.join(m.dirOf('beta'), 'watch')));
    m.w.sandbox.addThread({ id: 't2', text: BULLISH, project_id: 'c/solana', timestamp: minutesAgo(1) });
    await until('alpha posts again', () => posts(m, 'alpha') === 2);
    expect(fs.existsSync(path.join(m.dirOf('alpha'), 'watch'))).toBe(true);
    watcher.child.kill('SIGTERM');
    const ended = await watcher.done;
    expect(ended.code).toBe(0);
    expect(ended.stderr).toContain(m.dirOf('beta'));
    expect(ended.stderr).toMatch(/set aside/);
    expect(posts(m, 'beta')).toBe(0);
  });

  it('an agent set aside for a state others can read: list and doctor say so; the chmod printed brings it back', async () => {
    const m = await machine();
    expect((await m.register('alpha')).code).toBe(0);
    expect((await m.register('beta')).code).toBe(0);
    const state = path.join(m.dirOf('beta'), 'state.json');
    fs.chmodSync(state, 0o644);
    const watcher = startAll(m);
    let stderr = '';
    watcher.child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    await until('beta set aside', () => /\[beta\].*set aside/.test(stderr));
    const { code, rows } = await listed(m);
    expect(code).toBe(1);
    expect(rows.get(m.dirOf('beta'))).toMatchObject({
      setAside: { pid: watcher.child.pid },
      health: { state: 'failing', reason: expect.stringContaining('set it aside') },
    });
    expect(rows.get(m.dirOf('alpha'))).toMatchObject({ setAside: null });
    const doctor = await m.agent(['--agent', 'beta', 'doctor', '--json']);
    const checks = JSON.parse(doctor.stdout).checks as { name: string; status: string; detail: string }[];
    expect(checks.find((c) => c.name === 'set aside')).toMatchObject({
      status: 'fail',
      detail: expect.stringContaining(`poll --watch --all (pid ${watcher.child.pid}) set this agent aside`),
    });
    // The fix it printed, as printed.
    const chmod = /run: (chmod 600 '[^']+')/.exec(stderr)?.[1];
    expect(chmod).toBe(`chmod 600 '${state}'`);
    expect((await runPrinted(chmod!, {})).code).toBe(0);
    await until('beta polled again', () => /\[beta\] agent: .* changed; polling it again/.test(stderr));
    m.w.sandbox.addThread({ id: 't1', text: BULLISH, project_id: 'c/bitcoin', timestamp: minutesAgo(1) });
    await until('beta posts', () => posts(m, 'beta') === 1);
    const after = await listed(m);
    expect(after.rows.get(m.dirOf('beta'))).toMatchObject({ setAside: null, schedule: { kind: 'watcher' } });
    watcher.child.kill('SIGTERM');
    expect((await watcher.done).code).toBe(0);
  });

  it('when every agent is set aside, the watch ends with their exit code, markers removed', async () => {
    const m = await machine();
    expect((await m.register('alpha')).code).toBe(0);
    m.w.sandbox.intercept((_req, res) => {
      res.writeHead(401, { 'content-type': 'application/json' }).end('{"message":"invalid api key"}');
      return true;
    });
    const ended = await startAll(m).done;
    expect(ended.code).toBe(3);
    expect(ended.stderr).toContain('every agent is set aside');
    expect(fs.existsSync(path.join(m.dirOf('alpha'), 'watch'))).toBe(false);
  });

  it('--all needs --watch, and names no agent itself', async () => {
    const m = await machine();
    const alone = await m.agent(['poll', '--all']);
    expect(alone.code).toBe(2);
    expect(alone.stderr).toMatch(/--all goes with --watch/);
    const env = await m.agent(['poll', '--watch', '--all'], { env: { AGENT_CONFIG_DIR: m.w.configDir } });
    expect(env.code).toBe(2);
    expect(env.stderr).toMatch(/--all polls every agent: it cannot go with --config-dir \(or AGENT_CONFIG_DIR\)/);
    const named = await m.agent(['--agent', 'alpha', 'poll', '--watch', '--all']);
    expect(named.code).toBe(2);
    expect(named.stderr).toMatch(/--all/);
    const none = await m.agent(['poll', '--watch', '--all']);
    expect(none.code).toBe(3);
    expect(none.stderr).toMatch(/no registered agent found/);
  });
});

describe('doctor --agent', () => {
  it('its fixes name --agent, so that pasted they act on that agent', async () => {
    const m = await machine();
    expect((await m.register('alpha')).code).toBe(0);
    const result = await m.agent(['--agent', 'alpha', 'doctor', '--json']);
    const checks = JSON.parse(result.stdout).checks as Array<{ name: string; fix?: string }>;
    const fix = (name: string) => checks.find((c) => c.name === name)?.fix;
    expect(fix('schedule')).toBe('agent --agent alpha schedule --install');
    expect(fix('last poll')).toBe('agent --agent alpha poll (or agent --agent alpha schedule --install)');
  });
});
