// The package as a user installs it: packed, installed globally into a temporary prefix, run from there
// with no node_modules beside it and nothing fetched from a registry.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import { PROFILE_FLAGS, runAgent } from './harness.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const { version } = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string };
let work: string;
let prefix: string;

const npm = (args: string[], cwd: string) =>
  execFileSync('npm', [...args, '--no-audit', '--no-fund', '--offline', '--loglevel=error'], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, npm_config_prefix: prefix },
  });

beforeAll(() => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-install-'));
  prefix = path.join(work, 'prefix');
  // --ignore-scripts: the tests' build is packed as it is; a second build here would race the other tests.
  const tarball = npm(['pack', '--ignore-scripts', '--pack-destination', work], ROOT).trim().split('\n').at(-1)!;
  npm(['install', '-g', path.join(work, tarball)], work);
}, 120_000);

afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

function run(
  command: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(path.join(prefix, 'bin', command), args, {
      env: { HOME: work, PATH: `${path.dirname(process.execPath)}:/usr/bin:/bin`, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

it('installs the package alone: no dependencies, the bundle and its licence notices', () => {
  const installed = path.join(prefix, 'lib', 'node_modules', 'prediction-agent');
  expect(fs.existsSync(path.join(installed, 'node_modules'))).toBe(false);
  expect(fs.readdirSync(path.join(prefix, 'lib', 'node_modules'))).toEqual(['prediction-agent']);
  expect(fs.readFileSync(path.join(installed, 'dist', 'THIRD-PARTY-NOTICES.txt'), 'utf8')).toMatch(
    /^commander \d+\.\d+\.\d+ \(MIT\)$/m,
  );
});

it('runs as agent and as prediction-agent: --version, sandbox, register and poll', async () => {
  for (const command of ['agent', 'prediction-agent'])
    expect(await run(command, ['--version'])).toMatchObject({ code: 0, stdout: `${version}\n` });

  const sandbox = spawn(path.join(prefix, 'bin', 'prediction-agent'), ['sandbox', '--port', '0'], {
    env: { HOME: work, PATH: `${path.dirname(process.execPath)}:/usr/bin:/bin` },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      sandbox.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        out += chunk;
        if (out.includes('\n')) resolve(out.split('\n')[0]!.split(' ').at(-1)!);
      });
      sandbox.on('exit', (code) => reject(new Error(`the sandbox exited ${code}`)));
    });
    const dir = path.join(work, 'config');
    const registered = await run('agent', [
      '--config-dir',
      dir,
      'register',
      '--base-url',
      url,
      '--name',
      'installed-agent',
      ...PROFILE_FLAGS,
    ]);
    expect(registered.code, registered.stderr).toBe(0);
    const polled = await run('agent', ['--config-dir', dir, 'poll', '--json']);
    expect(polled.code, polled.stderr).toBe(0);
    const report = JSON.parse(polled.stdout) as { posted: unknown[]; skipped: unknown[]; cursor: unknown };
    expect(report.posted.length + report.skipped.length).toBeGreaterThan(0);
    expect(report.cursor).not.toBeNull();
  } finally {
    sandbox.kill('SIGTERM');
  }
});

// docs/setup.md#uninstall: the schedule is removed, then the program; the config dir, with the key, stays as
// it was until the user deletes it, and deleting the key loses the agent's name for good.
it('uninstalls as docs/setup.md says: schedule --remove, npm uninstall -g, and the config dir stays', async () => {
  const sandbox = await startSandbox({ ratePerMinute: 0 });
  try {
    // A crontab of its own, in a file: this test is about what is left, not about cron.
    const bin = path.join(work, 'fake-bin');
    fs.mkdirSync(bin);
    const table = path.join(work, 'crontab.txt');
    fs.writeFileSync(
      path.join(bin, 'crontab'),
      `#!/bin/sh\nif [ "$1" = -l ]; then [ -f '${table}' ] && exec cat '${table}'; echo "no crontab for me" >&2; exit 1; fi\ncat > '${table}'\n`,
      { mode: 0o755 },
    );
    const env = { PATH: `${bin}:${path.dirname(process.execPath)}:/usr/bin:/bin` };
    const dir = path.join(work, 'leaving');
    const agent = (args: string[]) => run('agent', ['--config-dir', dir, ...args], env);
    const name = 'leaving-agent';
    expect((await agent(['register', '--base-url', sandbox.url, '--name', name, ...PROFILE_FLAGS])).code).toBe(0);
    sandbox.addThread({ id: 'u1', project_id: 'c/bitcoin', timestamp: new Date().toISOString() });
    expect((await agent(['poll'])).code).toBe(0);
    expect((await agent(['config', 'set', 'analyzer.fallback', 'builtin'])).code).toBe(0);
    expect((await agent(['schedule', '--install'])).code).toBe(0);
    expect(fs.readFileSync(table, 'utf8')).toContain(`--config-dir ${dir} poll`);

    const removed = await agent(['schedule', '--remove']);
    expect(removed.code, removed.stderr).toBe(0);
    expect(fs.readFileSync(table, 'utf8')).not.toContain(dir);
    const kept = ['config.json', 'history.jsonl', 'state.json'];
    expect(
      fs
        .readdirSync(dir)
        .filter((file) => kept.includes(file))
        .sort(),
    ).toEqual(kept);
    const before = Object.fromEntries(kept.map((file) => [file, fs.readFileSync(path.join(dir, file), 'utf8')]));

    npm(['uninstall', '-g', 'prediction-agent'], work);
    expect(fs.existsSync(path.join(prefix, 'bin', 'agent'))).toBe(false);
    for (const file of kept) expect(fs.readFileSync(path.join(dir, file), 'utf8')).toBe(before[file]);

    // Deleting the key is for good: the service keeps the name, so it cannot be registered again.
    fs.rmSync(dir, { recursive: true });
    const again = await runAgent(
      ['--config-dir', dir, 'register', '--base-url', sandbox.url, '--name', name, ...PROFILE_FLAGS],
      work,
    );
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('already taken');
  } finally {
    await sandbox.close();
  }
});
