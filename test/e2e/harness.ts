import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach } from 'vitest';
import { KeyForms } from '../../src/domain/key-forms.js';
import { knownKeys } from '../../src/history/mask.js';
import { maskKey } from '../../src/output/sanitize.js';
import { startSandbox, type RunningSandbox, type SandboxOptions } from '../../src/sandbox/index.js';
import { holdsAnyKey } from '../support/key-scan.js';
import { takeReceived } from '../support/sent-bodies.js';

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
  /**
   * A file the test itself wrote with a key in it (an older version's history, say): only what the
   * program adds after this call is looked at for the key when the world closes.
   */
  planted(file: string): void;
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
  const printed: string[] = [];
  const planted = new Map<string, number>();
  const keys = new Set<string>();
  // Every key the dir has held, learnt after each run: a test may register again, or swap the state.
  const learn = () => {
    for (const key of knownKeys(configDir)) keys.add(key);
  };
  const world: World = {
    sandbox,
    home,
    configDir,
    async agent(args, runOptions = {}) {
      const result = await runAgent(['--config-dir', configDir, ...args], home, runOptions);
      learn();
      printed.push(`${args.join(' ')}: stdout`, result.stdout, `${args.join(' ')}: stderr`, result.stderr);
      return result;
    },
    register: (name = 'e2e-agent', extra = []) =>
      world.agent(['register', '--base-url', sandbox.url, '--name', name, ...PROFILE_FLAGS, ...extra]),
    state: () => JSON.parse(fs.readFileSync(path.join(configDir, 'state.json'), 'utf8')),
    planted: (file) => planted.set(path.resolve(file), fs.statSync(file).size),
    async close() {
      try {
        learn();
        expectNoKeyLeft(world, [...keys], { printed, planted });
      } finally {
        await sandbox.close();
        fs.rmSync(home, { recursive: true, force: true });
      }
    },
  };
  return world;
}

/** The files that must hold the key, in any config dir: the state, those `register --force` keeps, and a state being written. */
const KEY_HOLDER = /^(?:state(?:\.[0-9A-Za-z]+\.bak)?\.json|\.state\.json\..+\.tmp)$/;

/** Past this, a file is read at its two ends only: one the program appends to, planted that large by a test. */
const WHOLE_FILE_BYTES = 64 * 1024 * 1024;
const END_BYTES = 8 * 1024 * 1024;

/**
 * key-never-shown, checked whenever a world is closed (after each test, by `registeredWorlds`), by the rule
 * the program masks with (KeyForms: any case, escaped, folded, split, or 8 characters of it), on the text
 * as written and as a JSON reader gets it: no file under its home but the state files, nothing any run
 * printed, no body the service or another server of the test (a model, a webhook:
 * support/sent-bodies.ts) received. Says where, never the key.
 */
function expectNoKeyLeft(
  world: World,
  keys: string[],
  { printed, planted }: { printed: string[]; planted: Map<string, number> },
): void {
  const received = takeReceived();
  if (!keys.length) return;
  const holds = (text: string) => holdsAnyKey(keys, text);
  const found: string[] = [];
  for (const file of filesUnder(world.home)) {
    if (KEY_HOLDER.test(path.basename(file))) continue;
    if (textsOf(file, planted.get(file) ?? 0).some(holds)) found.push(file);
  }
  for (let i = 0; i < printed.length; i += 2) if (holds(printed[i + 1]!)) found.push(`the output of ${printed[i]}`);
  for (const r of world.sandbox.requests)
    if (r.body && holds(r.body)) found.push(`the body of ${r.method} ${r.path} to the service`);
  for (const body of received) if (holds(body)) found.push(`a body another server received: ${body.slice(0, 120)}`);
  if (!found.length) return;
  const message = `key-never-shown: the key (${keys.map(maskKey).join(', ')}) in some form is in:\n  ${found.join('\n  ')}`;
  throw new Error(keys.reduce((text, key) => new KeyForms(key).mask(text, '[key]'), message));
}

/** A file's text from `from` on: whole, or its two ends when it is huge. */
function textsOf(file: string, from: number): string[] {
  const size = fs.statSync(file).size;
  const read = (start: number, length: number) => {
    const buffer = Buffer.alloc(Math.max(0, length));
    const fd = fs.openSync(file, 'r');
    try {
      fs.readSync(fd, buffer, 0, buffer.length, start);
    } finally {
      fs.closeSync(fd);
    }
    return buffer.toString('utf8');
  };
  if (size - from <= WHOLE_FILE_BYTES) return [read(from, size - from)];
  return [read(from, END_BYTES), read(size - END_BYTES, END_BYTES)];
}

function filesUnder(dir: string): string[] {
  const out: string[] = [];
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return out;
  }
  for (const entry of entries) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...filesUnder(file));
    else if (entry.isFile()) out.push(file);
  }
  return out;
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
