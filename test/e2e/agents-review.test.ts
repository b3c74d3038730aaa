import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { collected, createWorld, fakeCrontab, PROFILE_FLAGS, runAgent, TEST_BIN, type World } from './harness.js';
import { commandsIn, runPrinted } from './printed-command.js';

// Several agents, attacked as a user would: a hint that must act on the agent it names, an agent dir
// that is a link, and a crontab entry left for a dir with no agent in it.

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

async function machine() {
  const w = await createWorld();
  world = w;
  const { env } = fakeCrontab(w.home);
  const agent = (args: string[]) => runAgent(args, w.home, { env });
  const register = (where: string[], name: string) =>
    agent([...where, 'register', '--base-url', w.sandbox.url, '--name', name, ...PROFILE_FLAGS]);
  return { w, env, agent, register };
}

describe('several agents, attacked', () => {
  it.each([
    ['poll', ['poll']],
    ['predict', ['predict', 't1']],
  ])(
    '%s on an agent never registered hints the register of that agent; pasted, it registers there',
    async (_name, args) => {
      const { w, env } = await machine();
      const result = await runAgent(['--agent', 'zz', ...args], w.home, { env });
      expect(result.code).toBe(3);
      const [hint] = commandsIn(result.stderr);
      expect(hint).toBe('agent --agent zz register');
      const pasted = await runPrinted(
        `${hint} --base-url ${w.sandbox.url} --name zz-agent ${PROFILE_FLAGS.join(' ')}`,
        { ...env, HOME: w.home },
      );
      expect(pasted.code).toBe(0);
      expect(fs.existsSync(path.join(w.configDir, 'agents', 'zz', 'state.json'))).toBe(true);
      expect(fs.existsSync(path.join(w.configDir, 'state.json'))).toBe(false);
    },
  );

  it('an agents/<name> that is a link to a dir elsewhere is listed (--watch --all polls what list finds), as --agent reaches it', async () => {
    const { w, agent, register } = await machine();
    const elsewhere = path.join(w.home, 'volume', 'linked');
    fs.mkdirSync(path.dirname(elsewhere), { mode: 0o700 });
    expect((await register(['--config-dir', elsewhere], 'linked-agent')).code).toBe(0);
    fs.mkdirSync(path.join(w.configDir, 'agents'), { recursive: true, mode: 0o700 });
    fs.symlinkSync(elsewhere, path.join(w.configDir, 'agents', 'linked'));
    expect((await agent(['--agent', 'linked', 'me', '--json'])).code).toBe(0);

    const list = await agent(['list', '--json']);
    expect(list.code).toBe(0);
    const rows = JSON.parse(list.stdout).agents as Array<{ name: string | null }>;
    expect(rows.map((row) => row.name)).toEqual(['linked-agent']);
  });

  it('a crontab entry left polling a dir whose agent is gone makes list fail: each of its polls exits 3', async () => {
    const { w, env, agent, register } = await machine();
    expect((await register(['--agent', 'kept'], 'kept-agent')).code).toBe(0);
    const gone = path.join(w.home, 'gone');
    expect((await register(['--config-dir', gone], 'gone-agent')).code).toBe(0);
    expect((await agent(['--config-dir', gone, 'schedule', '--install'])).code).toBe(0);
    fs.rmSync(gone, { recursive: true });
    // What cron now runs every 5 minutes fails each time.
    expect((await agent(['--config-dir', gone, 'poll'])).code).toBe(3);

    const list = await agent(['list', '--json']);
    const rows = JSON.parse(list.stdout).agents as Array<{ configDir: string; health: { state: string } }>;
    expect(rows.find((row) => row.configDir === gone)?.health.state).toBe('failing');
    expect(list.code).toBe(1);
    expect(list.stderr).toContain(`${gone} is failing`);
    const remove = /agent --config-dir \S+ schedule --remove/.exec(list.stderr)?.[0];
    expect((await runPrinted(remove!, { ...env, HOME: w.home })).code).toBe(0);
    expect((await agent(['list'])).code).toBe(0);
  });

  it('hints that quote a command for a rejected key or a corrupt state name the agent, in errors, doctor and list', async () => {
    const { w, agent, register } = await machine();
    expect((await register([], 'default-agent')).code).toBe(0);
    expect((await register(['--agent', 'model'], 'model-agent')).code).toBe(0);
    expect((await register(['--agent', 'broken'], 'broken-agent')).code).toBe(0);
    const events = path.join(w.home, 'events.jsonl');
    const script = path.join(w.home, 'alert.cjs');
    fs.writeFileSync(
      script,
      `process.stdin.pipe(require('fs').createWriteStream(${JSON.stringify(events)}, { flags: 'a' }));`,
    );
    const alertSet = await agent([
      '--agent',
      'broken',
      'config',
      'set',
      'alert.command',
      `${process.execPath} ${script}`,
    ]);
    expect(alertSet.code).toBe(0);
    fs.writeFileSync(path.join(w.configDir, 'agents', 'broken', 'state.json'), '{"apiKey": "hive_', { mode: 0o600 });
    const release = w.sandbox.intercept((_req, res) => {
      res.writeHead(401, { 'content-type': 'application/json' }).end('{"message":"invalid api key"}');
      return true;
    });
    const me = await agent(['--agent', 'model', 'me']);
    expect(me.code).toBe(3);
    expect(commandsIn(me.stderr)).toEqual(['agent --agent model register --force']);
    const doctor = await agent(['--agent', 'model', 'doctor', '--json']);
    const service = JSON.parse(doctor.stdout).checks.find((c: { name: string }) => c.name === 'service');
    expect(service.fix).toMatch(/^agent --agent model register --force /);
    release();

    const poll = await agent(['--agent', 'broken', 'poll']);
    expect(poll.code).toBe(1);
    expect(commandsIn(poll.stderr)).toEqual(['agent --agent broken register']);
    const [event] = fs
      .readFileSync(events, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(event.kind).toBe('failing');
    expect(commandsIn(event.hint)).toEqual(['agent --agent broken register']);
    const brokenDoctor = await agent(['--agent', 'broken', 'doctor', '--json']);
    const state = JSON.parse(brokenDoctor.stdout).checks.find((c: { name: string }) => c.name === 'state');
    expect(commandsIn(state.fix)).toEqual(['agent --agent broken register']);
    const list = await agent(['list']);
    expect(list.code).toBe(1);
    expect(commandsIn(list.stderr)).toEqual(['agent --agent broken register']);
  });

  it('--watch --all, taking over from a stopped watcher, writes its own marker: list names it, not the stopped one', async () => {
    const { w, env, agent, register } = await machine();
    expect((await register(['--agent', 'alpha'], 'alpha-agent')).code).toBe(0);
    const marker = path.join(w.configDir, 'agents', 'alpha', 'watch');
    const markerPid = () => (fs.existsSync(marker) ? JSON.parse(fs.readFileSync(marker, 'utf8')).pid : undefined);
    const start = (args: string[]) => {
      const child = spawn(process.execPath, [TEST_BIN, ...args, '--interval', '0.2'], {
        env: { HOME: w.home, ...env, AGENT_TEST_SHORT_WATCH: '1' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      return { child, done: collected(child) };
    };
    const until = async (what: string, condition: () => boolean) => {
      const started = Date.now();
      while (!condition()) {
        if (Date.now() - started > 20_000) throw new Error(`not in time: ${what}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    };
    const single = start(['--agent', 'alpha', 'poll', '--watch']);
    // --all starts once the single watcher holds alpha, so that it meets it live first, then stopped.
    await until('the single watcher marks alpha', () => markerPid() === single.child.pid);
    const all = start(['poll', '--watch', '--all']);
    try {
      single.child.kill('SIGSTOP');
      await until('--all takes alpha over', () => markerPid() === all.child.pid);
      // Rounds later the marker still names it (the stopped one's is not kept fresh in its stead).
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(markerPid()).toBe(all.child.pid);
      const rows = JSON.parse((await agent(['list', '--json'])).stdout).agents;
      expect(rows[0].schedule).toMatchObject({ kind: 'watcher', pid: all.child.pid, overdue: false });
    } finally {
      single.child.kill('SIGKILL');
      single.child.kill('SIGCONT');
      all.child.kill('SIGTERM');
      const [, ended] = await Promise.all([single.done, all.done]);
      expect(ended.stderr).toContain('this watcher takes over');
    }
  });
});
