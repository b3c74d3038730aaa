// What the command prints, and where, in the corners a newcomer and a script meet.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN, registeredWorlds, runAgent } from './harness.js';

const registered = registeredWorlds();
const homes: string[] = [];
afterEach(() => {
  for (const home of homes.splice(0)) fs.rmSync(home, { recursive: true, force: true });
});
function home(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-cli-output-'));
  homes.push(dir);
  return dir;
}

/** Runs the binary with its stdout on /dev/full, where every write fails with ENOSPC. */
function intoFullDevice(args: string[], homeDir = home()): Promise<{ code: number | null; stderr: string }> {
  const full = fs.openSync('/dev/full', 'w');
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: { HOME: homeDir, PATH: process.env.PATH ?? '' },
      stdio: ['ignore', full, 'pipe'],
    });
    fs.closeSync(full);
    let stderr = '';
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

describe('--version: the version alone, and with -v or --json what a bug report needs', () => {
  const ROOT = path.join(import.meta.dirname, '..', '..');
  const build = () =>
    /^\/\*build:([0-9a-f]+)\*\//.exec(fs.readFileSync(path.join(ROOT, 'dist', 'agent.cjs'), 'latin1'))![1];
  const version = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version;

  it('plain: the version, one line', async () => {
    expect(await runAgent(['--version'], home())).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
  });

  it('--json: version, node, platform, build, install path and config dir', async () => {
    const dir = home();
    const result = await runAgent(['--version', '--json'], dir);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      version,
      node: process.versions.node,
      platform: `${process.platform}-${process.arch}`,
      build: build(),
      installPath: ROOT,
      configDir: path.join(dir, '.config', 'prediction-agent'),
    });
    const given = await runAgent(['--config-dir', '~/agents/a', '--version', '--json'], dir);
    expect(JSON.parse(given.stdout).configDir).toBe(path.join(dir, 'agents', 'a'));
  });

  it('-v: the same, one per line, after the version', async () => {
    const dir = home();
    const result = await runAgent(['--version', '-v'], dir);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      [
        version,
        `node         ${process.versions.node}`,
        `platform     ${process.platform}-${process.arch}`,
        `build        ${build()}`,
        `install path ${ROOT}`,
        `config dir   ${path.join(dir, '.config', 'prediction-agent')}`,
        '',
      ].join('\n'),
    );
  });
});

it.skipIf(!fs.existsSync('/dev/full'))(
  'a stdout that cannot be written (/dev/full) ends the run with one line and exit 1, no stack',
  async () => {
    for (const args of [['--version', '--json'], ['--help']]) {
      const result = await intoFullDevice(args);
      expect(result.code, args.join(' ')).toBe(1);
      expect(result.stderr).toBe('agent: cannot write to standard output (ENOSPC)\n');
    }
  },
);

it.skipIf(!fs.existsSync('/dev/full'))(
  'a poll whose stdout cannot be written still saves its work, and says the output was lost',
  async () => {
    const w = await registered();
    w.sandbox.addThread({ id: 'f', project_id: 'c/bitcoin', timestamp: new Date().toISOString() });
    const result = await intoFullDevice(['--config-dir', w.configDir, 'poll', '--json'], w.home);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('agent: cannot write to standard output (ENOSPC)');
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(w.state().cursor?.id).toBe('f');
  },
);

it('AGENT_CONFIG_DIR="" is no value: the default config dir is used', async () => {
  const dir = home();
  const result = await runAgent(['me'], dir, { env: { AGENT_CONFIG_DIR: '' } });
  expect(result.code).toBe(3);
  expect(result.stderr).toContain(path.join(dir, '.config', 'prediction-agent'));
});
