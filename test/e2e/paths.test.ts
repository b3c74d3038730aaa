import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { PROFILE_FLAGS, runAgent } from './harness.js';

// A path reaches the program with its "~" unexpanded whenever no shell expanded it: quoted, after "="
// (`--config-dir=~/a`), from an environment file or a crontab line. It means the home directory there too,
// and every path the program prints is absolute and quoted when it holds a space, so what is said is
// where things are.

let sandbox: RunningSandbox;
let home: string;
/** Where the commands run: a "~" taken literally would show up here as a directory. */
let cwd: string;

beforeEach(async () => {
  sandbox = await startSandbox({ ratePerMinute: 0 });
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-paths-'));
  cwd = path.join(home, 'work');
  fs.mkdirSync(cwd);
});
afterEach(async () => {
  await sandbox.close();
  fs.rmSync(home, { recursive: true, force: true });
});

const register = (args: string[], env: Record<string, string> = {}) =>
  runAgent(['register', '--base-url', sandbox.url, '--name', 'paths-agent', ...PROFILE_FLAGS, ...args], home, {
    env,
    cwd,
  });

describe('a leading ~ is the home directory', () => {
  it.each([
    ['--config-dir ~/…', ['--config-dir', '~/agents/one'], {}],
    ['--config-dir=~/…', ['--config-dir=~/agents/one'], {}],
    ['AGENT_CONFIG_DIR=~/…', [], { AGENT_CONFIG_DIR: '~/agents/one' }],
  ])('%s: the state goes there, and the message names it absolute', async (_how, args, env) => {
    const result = await register([...args, '--json'], env);
    expect(result.code, result.stderr).toBe(0);
    const file = path.join(home, 'agents', 'one', 'state.json');
    expect(JSON.parse(result.stdout).stateFile).toBe(file);
    expect(fs.existsSync(file)).toBe(true);
    expect(fs.readdirSync(cwd)).toEqual([]);
    const me = await runAgent(['me'], home, { env: { AGENT_CONFIG_DIR: '~/agents/one' }, cwd });
    expect(me.code, me.stderr).toBe(0);
    expect(me.stdout).toContain(`in ${file}`);
  });

  it('a bare ~ is the home directory itself', async () => {
    const result = await runAgent(['--config-dir', '~', 'me'], home, { cwd });
    expect(result.code).toBe(3);
    expect(result.stderr).toBe(
      `agent: no agent is registered in ${home} (run "agent --config-dir ${home} register" first)\n`,
    );
  });

  it('without HOME a ~ cannot mean anything: refused, nothing created', async () => {
    const result = await runAgent(['--config-dir', '~/agents/one', 'me'], home, { env: { HOME: '' }, cwd });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('HOME is not set');
    expect(fs.readdirSync(cwd)).toEqual([]);
  });

  it('schedule --log ~/…: the crontab line appends to the file in the home directory', async () => {
    const emptyPath = path.join(home, 'no-programs');
    fs.mkdirSync(emptyPath);
    const result = await runAgent(
      ['--config-dir', path.join(home, 'cfg'), 'schedule', '--log', '~/logs/poll.log', '--json'],
      home,
      { env: { PATH: emptyPath }, cwd },
    );
    expect(result.code, result.stderr).toBe(0);
    const { entry } = JSON.parse(result.stdout);
    expect(entry).toContain(`--log ${path.join(home, 'logs', 'poll.log')}`);
    expect(entry).not.toContain('~');
  });

  it('poll --log ~/…: the poll writes its log in the home directory', async () => {
    const dir = path.join(home, 'cfg');
    expect((await register(['--config-dir', dir])).code).toBe(0);
    const result = await runAgent(['--config-dir', dir, 'poll', '--log', '~/poll.log'], home, { cwd });
    expect(result.code, result.stderr).toBe(0);
    expect(fs.existsSync(path.join(home, 'poll.log'))).toBe(true);
    expect(fs.readdirSync(cwd)).toEqual([]);
  });
});

describe('paths in messages', () => {
  it('a relative config dir is printed absolute', async () => {
    const result = await register(['--config-dir', 'rel']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(`saved in ${path.join(cwd, 'rel', 'state.json')} (mode 600)`);
  });

  it('a trailing space is visible: the path is quoted', async () => {
    const dir = path.join(home, 'my agent ');
    const result = await register(['--config-dir', dir]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(`saved in '${dir}/state.json' (mode 600)`);
    const again = await register(['--config-dir', dir]);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain(`already registered in '${dir}'`);
    const missing = await runAgent(['--config-dir', path.join(home, 'nobody here '), 'poll'], home, { cwd });
    expect(missing.code).toBe(3);
    expect(missing.stderr).toContain(`no agent is registered in '${path.join(home, 'nobody here ')}'`);
  });
});
