import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BIN, collected, createWorld, modeOf, PROFILE_FLAGS, runAgent, type RunResult, type World } from './harness.js';

let world: World;
beforeEach(async () => {
  world = await createWorld();
});
afterEach(async () => world.close());

describe('agent register', () => {
  it('stores the key in a private state file and prints only its masked form', async () => {
    const result = await world.register('alpha-agent');
    expect(result.code).toBe(0);
    const state = world.state();
    expect(state).toMatchObject({ agentName: 'alpha-agent', cursor: null, baseUrl: world.sandbox.url });
    expect(state.apiKey).toMatch(/^hive_/);
    expect(modeOf(world.configDir)).toBe('700');
    expect(modeOf(path.join(world.configDir, 'state.json'))).toBe('600');
    expect(result.stdout + result.stderr).not.toContain(state.apiKey);
    expect(result.stdout).toContain(`hive_…${state.apiKey.slice(-4)}`);
    expect(fs.readdirSync(world.configDir).sort()).toEqual(['state.json']);
  });

  it('without --config-dir (a crontab line names none): the state goes to ~/.config/prediction-agent, and poll finds it there', async () => {
    // The harness's world passes --config-dir; cron gives HOME and PATH only, so the default dir is what it uses.
    const register = await runAgent(
      ['register', '--base-url', world.sandbox.url, '--name', 'default-dir', ...PROFILE_FLAGS, '--json'],
      world.home,
    );
    expect(register.code).toBe(0);
    expect(JSON.parse(register.stdout).stateFile).toBe(path.join(world.configDir, 'state.json'));
    expect(modeOf(world.configDir)).toBe('700');
    expect(world.state()).toMatchObject({ agentName: 'default-dir', cursor: null });
    const thread = world.sandbox.addThread();
    const poll = await runAgent(['poll'], world.home);
    expect(poll).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(world.state().cursor).toMatchObject({ id: thread.id });
  });

  it('prints {agent, stateFile} with --json and no key', async () => {
    const result = await world.register('json-agent', ['--json']);
    expect(result.code).toBe(0);
    const doc = JSON.parse(result.stdout);
    expect(doc.stateFile).toBe(path.join(world.configDir, 'state.json'));
    expect(doc.agent).toMatchObject({ name: 'json-agent', honey: 0, wax: 0, total_comments: 0 });
    expect(result.stdout).not.toContain(world.state().apiKey);
  });

  it.each([
    ['a name too short', ['--name', 'ab', ...PROFILE_FLAGS]],
    ['a bio too long', ['--name', 'valid-name', '--bio', 'x'.repeat(501), ...PROFILE_FLAGS]],
    [
      'an avatar that is not http(s)',
      ['--name', 'valid-name', '--avatar-url', 'javascript:alert(1)', ...PROFILE_FLAGS],
    ],
    ['a profile value not in the list', ['--name', 'valid-name', ...PROFILE_FLAGS.slice(0, 7), 'sometimes']],
    ['a missing profile flag without a terminal', ['--name', 'valid-name', ...PROFILE_FLAGS.slice(2)]],
  ])('refuses %s with exit 2 and sends nothing', async (_what, args) => {
    const result = await world.agent(['register', '--base-url', world.sandbox.url, ...args]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^agent: |error:/);
    expect(world.sandbox.requests).toHaveLength(0);
    expect(fs.existsSync(path.join(world.configDir, 'state.json'))).toBe(false);
  });

  it('refuses plain http to a non-loopback address before sending anything', async () => {
    const result = await world.agent([
      'register',
      '--base-url',
      'http://example.com',
      '--name',
      'valid-name',
      ...PROFILE_FLAGS,
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('plain http');
  });

  it('says the name is taken (exit 2) and stores nothing', async () => {
    expect((await world.register('taken-name')).code).toBe(0);
    const other = await createWorld();
    try {
      const again = await other.agent([
        'register',
        '--base-url',
        world.sandbox.url,
        '--name',
        'taken-name',
        ...PROFILE_FLAGS,
      ]);
      expect(again.code).toBe(2);
      expect(again.stderr).toContain('already taken');
      expect(fs.existsSync(path.join(other.configDir, 'state.json'))).toBe(false);
    } finally {
      await other.close();
    }
  });

  it('refuses to replace a registered agent without --force, and keeps a private backup with it', async () => {
    expect((await world.register('first-agent')).code).toBe(0);
    const firstKey = world.state().apiKey;
    const refused = await world.register('second-agent');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--force');
    expect(world.state().apiKey).toBe(firstKey);

    const forced = await world.register('second-agent', ['--force']);
    expect(forced.code).toBe(0);
    expect(world.state().agentName).toBe('second-agent');
    const backups = fs.readdirSync(world.configDir).filter((f) => f.endsWith('.bak.json'));
    expect(backups).toHaveLength(1);
    const backup = path.join(world.configDir, backups[0]!);
    expect(modeOf(backup)).toBe('600');
    expect(JSON.parse(fs.readFileSync(backup, 'utf8')).apiKey).toBe(firstKey);
  });

  it('needs a service address', async () => {
    const result = await world.agent(['register', '--name', 'valid-name', ...PROFILE_FLAGS]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--base-url');
  });

  it('accepts global options after the command and the address from AGENT_BASE_URL', async () => {
    const result = await world.agent(['register', '--name', 'env-agent', ...PROFILE_FLAGS, '--json'], {
      env: { AGENT_BASE_URL: world.sandbox.url },
    });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).agent.name).toBe('env-agent');
  });
});

describe('register on a disk too full for the state', () => {
  // A full disk, as root too (where chmod tricks pass vacuously): the shell's file-size limit makes any
  // write beyond it fail with EFBIG in the child (Node ignores SIGXFSZ), while the small lock still fits.
  // `ulimit -f` counts 512-byte blocks (1024 in bash outside POSIX mode): the sizes below hold for both.
  function registerWithFileLimit(blocks: number, name: string): Promise<RunResult> {
    const args = [
      '--config-dir',
      world.configDir,
      'register',
      '--base-url',
      world.sandbox.url,
      '--name',
      name,
      ...PROFILE_FLAGS,
    ];
    return collected(
      spawn('/bin/sh', ['-c', `ulimit -f ${blocks} && exec "$@"`, 'sh', process.execPath, BIN, ...args], {
        env: { HOME: world.home, PATH: process.env.PATH ?? '/usr/bin:/bin' },
        stdio: ['ignore', 'pipe', 'pipe'],
      }),
    );
  }

  /** The service answers with a key this long: the state written after the answer grows with it. */
  function issueKeyOf(length: number): string {
    const key = `hive_${'k'.repeat(length - 5)}`;
    world.sandbox.intercept((req, res) => {
      if (req.method !== 'POST' || req.url !== '/agent/register') return false;
      req.resume();
      res
        .writeHead(201, { 'content-type': 'application/json' })
        .end(JSON.stringify({ api_key: key, agent: { id: 'ag_full', name: 'full-disk' } }));
      return true;
    });
    return key;
  }

  const registrations = () => world.sandbox.requests.filter((r) => r.path === '/agent/register');

  it('finds out before sending: nothing is sent, the name stays free, no file is left', async () => {
    issueKeyOf(3000); // a state larger than the limit: the old order sent, then failed to store this key
    const result = await registerWithFileLimit(2, 'full-disk');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`cannot write ${path.join(world.configDir, 'state.json')} (EFBIG)`);
    expect(registrations()).toHaveLength(0);
    expect(fs.readdirSync(world.configDir)).toEqual([]);
  });

  it('when the write still fails after the answer, prints the key once with where to save it', async () => {
    const key = issueKeyOf(20_000); // fits no file this run may write, though the reservation did
    const file = path.join(world.configDir, 'state.json');
    const result = await registerWithFileLimit(16, 'full-disk');
    expect(result.code).toBe(1);
    expect(registrations()).toHaveLength(1);
    expect(result.stdout).toBe('');
    expect(result.stderr.split(key)).toHaveLength(2);
    expect(result.stderr).toContain(`save the next line, exactly, as ${file}, then run: chmod 600 '${file}'`);
    const saved = result.stderr.split('\n').find((line) => line.includes(key))!;
    expect(JSON.parse(saved)).toEqual({
      apiKey: key,
      agentName: 'full-disk',
      agentId: 'ag_full',
      cursor: null,
      baseUrl: world.sandbox.url,
    });
    expect(fs.readdirSync(world.configDir)).toEqual([]);
  });
});

describe('agent me and update', () => {
  it('shows the agent, as the service returned it with --json', async () => {
    await world.register('me-agent');
    const human = await world.agent(['me']);
    expect(human.code).toBe(0);
    expect(human.stdout).toContain('me-agent');
    expect(human.stdout).toContain('onchain signals');
    const json = JSON.parse((await world.agent(['me', '--json'])).stdout);
    expect(json).toMatchObject({ name: 'me-agent', prediction_profile: { signal_method: 'onchain' } });
  });

  it('merges one changed profile field into the whole current profile', async () => {
    await world.register('update-agent');
    const result = await world.agent(['update', '--conviction-style', 'bold', '--bio', 'Reads flows.', '--json']);
    expect(result.code).toBe(0);
    const patch = world.sandbox.requests.find((r) => r.method === 'PATCH');
    expect(patch).toBeDefined();
    const me = JSON.parse((await world.agent(['me', '--json'])).stdout);
    expect(me.prediction_profile).toEqual({
      signal_method: 'onchain',
      conviction_style: 'bold',
      directional_bias: 'neutral',
      participation: 'active',
    });
    expect(me.bio).toBe('Reads flows.');
  });

  it('shows the agent from GET /agent/me when the PATCH answer is not an agent', async () => {
    await world.register('update-agent');
    world.sandbox.intercept((req, res) => {
      if (req.method !== 'PATCH') return false;
      req.resume();
      res.writeHead(204).end();
      return true;
    });
    const result = await world.agent(['update', '--bio', 'Short bio.', '--json']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ name: 'update-agent' });
  });

  it('cannot merge one profile field into a profile the service did not return (exit 5), and sends no PATCH', async () => {
    await world.register('update-agent');
    world.sandbox.intercept((req, res) => {
      if (req.method !== 'GET') return false;
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: 'x', name: 'update-agent' }));
      return true;
    });
    const result = await world.agent(['update', '--participation', 'active']);
    expect(result.code).toBe(5);
    expect(result.stderr).toContain('all four profile flags');
    expect(world.sandbox.requests.filter((r) => r.method === 'PATCH')).toHaveLength(0);

    const whole = await world.agent([
      'update',
      '--signal-method',
      'macro',
      '--conviction-style',
      'bold',
      '--directional-bias',
      'bearish',
      '--participation',
      'active',
    ]);
    expect(whole.code).toBe(0);
    expect(world.sandbox.requests.filter((r) => r.method === 'PATCH')).toHaveLength(1);
  });

  it('refuses an update with nothing to change', async () => {
    await world.register('update-agent');
    const before = world.sandbox.requests.length;
    const result = await world.agent(['update']);
    expect(result.code).toBe(2);
    expect(world.sandbox.requests).toHaveLength(before);
  });

  it('exits 3 with a hint when nobody is registered', async () => {
    const result = await world.agent(['me']);
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('agent register');
  });

  it('exits 3 when the service rejects the key', async () => {
    await world.register('revoked-agent');
    const file = path.join(world.configDir, 'state.json');
    const state = world.state();
    fs.writeFileSync(file, JSON.stringify({ ...state, apiKey: 'hive_notavalidkeyatall000000000' }), { mode: 0o600 });
    const result = await world.agent(['me', '--json']);
    expect(result.code).toBe(3);
    expect(JSON.parse(result.stdout)).toEqual({ error: { code: 3, message: expect.stringContaining('401') } });
    expect(result.stderr).not.toContain('hive_notavalidkeyatall000000000');
  });
});

describe('register --name: the name registered is the name meant, as the prompt takes it', () => {
  // The name can never change: a stray space (a script's quoting) or a full-width lookalike would stay for
  // good. The flag is read as the prompt reads an answer: NFKC, then trimmed; a note names what was sent.
  const sentNames = () =>
    world.sandbox.requests.filter((r) => r.path === '/agent/register').map((r) => JSON.parse(r.body ?? '{}').name);

  it.each([
    ['a trailing space', 'spaced-agent ', 'spaced-agent'],
    ['spaces around', '  spaced-agent\u00a0', 'spaced-agent'],
    ['full-width letters', '\uff46\uff55\uff4c\uff4c-agent', 'full-agent'],
    ['an ideographic space', 'wide-agent\u3000', 'wide-agent'],
  ])('%s: registered as the plain name, and said so', async (_what, given, meant) => {
    const result = await world.agent(['register', '--base-url', world.sandbox.url, '--name', given, ...PROFILE_FLAGS]);
    expect(result.code, result.stderr).toBe(0);
    expect(sentNames()).toEqual([meant]);
    expect(world.state().agentName).toBe(meant);
    expect(result.stderr).toContain(`registering the name as "${meant}"`);
  });

  it('a name already plain gets no note', async () => {
    const result = await world.register('plain-agent');
    expect(result).toMatchObject({ code: 0, stderr: '' });
  });

  it.each([
    ['only spaces', '     ', /--name must be 3-50 characters \(got 0\)/],
    ['too short once trimmed', ' ab ', /--name must be 3-50 characters \(got 2\)/],
    ['an invisible character inside', 'zero\u200bwidth', /--name must not contain invisible characters/],
  ])('%s: refused, nothing sent', async (_what, given, problem) => {
    const result = await world.agent(['register', '--base-url', world.sandbox.url, '--name', given, ...PROFILE_FLAGS]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(problem);
    expect(world.sandbox.requests).toHaveLength(0);
  });
});
