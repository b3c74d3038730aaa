import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach } from 'vitest';
import { startSandbox, type RunningSandbox, type SandboxOptions } from '../../src/sandbox/index.js';

export const BIN = fileURLToPath(new URL('../../bin/agent.cjs', import.meta.url));
/** The same command with the fault-injection hooks (test/support/test-entry.ts): run for AGENT_TEST_* only. */
export const TEST_BIN = fileURLToPath(new URL('../.build/agent-test.cjs', import.meta.url));

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  env?: Record<string, string>;
  timeoutMs?: number;
  /** Written to stdin, which is then closed; without it stdin is closed from the start, as under cron. */
  input?: string;
  /** Another copy of bin/agent.cjs to run instead of this clone's. */
  bin?: string;
  /** The directory it runs in (default: this test process's). */
  cwd?: string;
}

/**
 * Runs the built `agent` as cron would: no terminal, stdin closed, and an environment of HOME and PATH
 * only (plus what the test adds).
 */
export function runAgent(args: string[], home: string, options: RunOptions = {}): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const hooked = Object.keys(options.env ?? {}).some((name) => name.startsWith('AGENT_TEST_'));
    const child = spawn(process.execPath, [options.bin ?? (hooked ? TEST_BIN : BIN), ...args], {
      env: { HOME: home, PATH: process.env.PATH ?? '/usr/bin:/bin', ...options.env },
      cwd: options.cwd,
      stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    child.stdin?.end(options.input);
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 20_000);
    collected(child).then(
      (result) => {
        clearTimeout(timer);
        resolve(result);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

/** What a child spawned with piped stdout and stderr printed, and its exit code, once it has closed. */
export function collected(child: ChildProcess): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

export interface World {
  sandbox: RunningSandbox;
  home: string;
  configDir: string;
  /** Runs agent with --config-dir set to this world's dir. */
  agent(args: string[], options?: RunOptions): Promise<RunResult>;
  register(name?: string, extra?: string[]): Promise<RunResult>;
  state(): Record<string, unknown> & { apiKey: string; cursor: { timestamp: string; id: string } | null };
  close(): Promise<void>;
}

export const PROFILE_FLAGS = [
  '--signal-method',
  'onchain',
  '--conviction-style',
  'moderate',
  '--directional-bias',
  'neutral',
  '--participation',
  'active',
];

export async function createWorld(options: SandboxOptions = {}): Promise<World> {
  const sandbox = await startSandbox({ ratePerMinute: 0, ...options });
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-e2e-'));
  const configDir = path.join(home, '.config', 'prediction-agent');
  const world: World = {
    sandbox,
    home,
    configDir,
    agent: (args, runOptions = {}) => runAgent(['--config-dir', configDir, ...args], home, runOptions),
    register: (name = 'e2e-agent', extra = []) =>
      world.agent(['register', '--base-url', sandbox.url, '--name', name, ...PROFILE_FLAGS, ...extra]),
    state: () => JSON.parse(fs.readFileSync(path.join(configDir, 'state.json'), 'utf8')),
    async close() {
      await sandbox.close();
      fs.rmSync(home, { recursive: true, force: true });
    },
  };
  return world;
}

export const BULLISH =
  'Spot ETF inflows hit $500M as whales withdraw 10,000 BTC from exchanges; breakout above resistance.';
export const BEARISH =
  'Exchange hacked, withdrawals halted; $200M token unlock next week and whales moving coins to exchanges.';

export function modeOf(file: string): string {
  return (fs.statSync(file).mode & 0o777).toString(8);
}

/**
 * For a test file: a function that gives each test a registered agent against its own sandbox (as many
 * as it asks for); every world is closed after the test.
 */
export function registeredWorlds(): (options?: SandboxOptions) => Promise<World> {
  const worlds: World[] = [];
  afterEach(async () => {
    for (const world of worlds.splice(0)) await world.close();
  });
  return async (options = {}) => {
    const world = await createWorld(options);
    worlds.push(world);
    const registered = await world.register();
    if (registered.code !== 0) throw new Error(`register failed (${registered.code}): ${registered.stderr}`);
    return world;
  };
}

/** An ISO timestamp this many minutes ago. */
export const minutesAgo = (minutes: number): string => new Date(Date.now() - minutes * 60_000).toISOString();

/** Counts every POST per thread id as it arrives, whatever the answer. */
export function countPosts(w: World): Map<string, number> {
  const counts = new Map<string, number>();
  w.sandbox.intercept((req) => {
    if (req.method === 'POST' && req.url?.startsWith('/comment/')) {
      const id = decodeURIComponent(req.url.slice('/comment/'.length));
      counts.set(id, (counts.get(id) ?? 0) + 1);
    }
    return false;
  });
  return counts;
}

/**
 * A `crontab` program of the test's own, which keeps the table in a file under `home`: `-l` lists it
 * (exit 1 "no crontab for me" before the first install), `-` installs standard input. Returns the PATH
 * that finds it first, and the table's file.
 */
export function fakeCrontab(home: string): { env: { PATH: string }; table: string } {
  const bin = path.join(home, 'bin');
  fs.mkdirSync(bin, { recursive: true });
  const table = path.join(home, 'crontab.txt');
  fs.writeFileSync(
    path.join(bin, 'crontab'),
    `#!/bin/sh\nt='${table}'\ncase "$1" in\n  -l) [ -f "$t" ] || { echo "no crontab for me" >&2; exit 1; }; cat "$t";;\n  -) cat > "$t";;\n  *) exit 2;;\nesac\n`,
    { mode: 0o755 },
  );
  return { env: { PATH: `${bin}:/usr/bin:/bin` }, table };
}
