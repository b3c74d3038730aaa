import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { asUser, userCanRun } from './as-user.js';
import { BIN, collected, runAgent } from './harness.js';
import { atTerminal, SCRIPT, stopTerminals } from './terminal.js';

const homes: string[] = [];
afterEach(() => {
  for (const home of homes.splice(0)) fs.rmSync(home, { recursive: true, force: true });
});

function home(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-sandbox-cmd-'));
  homes.push(dir);
  return dir;
}

it('prints its address first, serves the interface, and exits 0 on SIGTERM', async () => {
  const child = spawn(process.execPath, [BIN, 'sandbox', '--port', '0', '--seed', '7'], {
    env: { HOME: home(), PATH: process.env.PATH ?? '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const firstLine = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      if (out.includes('\n')) resolve(out.split('\n')[0]!);
    });
    child.on('exit', (code) => reject(new Error(`exited ${code} before printing its address`)));
  });
  expect(firstLine).toMatch(/^Sandbox listening on http:\/\/127\.0\.0\.1:\d+$/);
  const url = firstLine.split(' ').at(-1)!;
  const answer = await fetch(`${url}/thread`);
  expect(answer.status).toBe(401);
  await answer.text();
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  child.kill('SIGTERM');
  expect(await exited).toBe(0);
  await expect(fetch(`${url}/thread`)).rejects.toThrow();
});

it('--start 4h: its clock starts 4 hours ago, so its threads are dated in the past of this machine', async () => {
  const child = spawn(process.execPath, [BIN, 'sandbox', '--port', '0', '--start', '4h', '--rate', '30'], {
    env: { HOME: home(), PATH: process.env.PATH ?? '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        out += chunk;
        if (out.includes('\n')) resolve(out.split('\n')[0]!.split(' ').at(-1)!);
      });
      child.on('exit', (code) => reject(new Error(`exited ${code} before printing its address`)));
    });
    const registered = await fetch(`${url}/agent/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'past-bee',
        prediction_profile: {
          signal_method: 'technical',
          conviction_style: 'moderate',
          directional_bias: 'neutral',
          participation: 'active',
        },
      }),
    });
    const { api_key: key } = (await registered.json()) as { api_key: string };
    const threads = (await (
      await fetch(`${url}/thread?limit=100`, { headers: { 'x-api-key': key } })
    ).json()) as Array<{
      timestamp: string;
    }>;
    expect(threads.length).toBeGreaterThan(0);
    const newest = Math.max(...threads.map((t) => Date.parse(t.timestamp)));
    expect(newest).toBeLessThan(Date.now() - 3.9 * 3_600_000);
  } finally {
    child.kill('SIGTERM');
  }
});

it.each([
  [['--speed', 'fast']],
  [['--port', '70000']],
  [['--rate', '-1']],
  [['--start', 'yesterday']],
  [['--start', '4h', '--export', 'out.json']],
])('refuses %j with exit 2', async (flags) => {
  const result = await runAgent(['sandbox', ...flags], home());
  expect(result.code).toBe(2);
  expect(result.stdout).toBe('');
});

it('a port already in use is a usage error that says how to pick another, not a bug', async () => {
  const taken = net.createServer();
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
  const { port } = taken.address() as AddressInfo;
  try {
    const result = await runAgent(['sandbox', '--port', String(port)], home());
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      `agent: port ${port} is already in use on 127.0.0.1 (choose another --port, or --port 0 to pick a free one)\n`,
    );
  } finally {
    await new Promise((resolve) => taken.close(resolve));
  }
});

it('a --host that is not an address of this machine is a usage error too', async () => {
  // 192.0.2.1 is reserved for documentation: no machine has it, and listening sends nothing anywhere.
  const result = await runAgent(['sandbox', '--host', '192.0.2.1'], home());
  expect(result.code).toBe(2);
  expect(result.stdout).toBe('');
  expect(result.stderr).toContain(
    'agent: cannot listen on 192.0.2.1: it is not an address of this machine (check --host)\n',
  );
});

// Ports below this one need root (Linux's default): an ordinary user meets EACCES there.
const unprivilegedFrom = (() => {
  try {
    return Number(fs.readFileSync('/proc/sys/net/ipv4/ip_unprivileged_port_start', 'utf8'));
  } catch {
    return 1024;
  }
})();

it.skipIf(unprivilegedFrom === 0 || !userCanRun())(
  'a privileged --port is a usage error that says why, not a bug',
  async () => {
    const result = await collected(
      spawn(process.execPath, [BIN, 'sandbox', '--port', '1'], {
        env: { HOME: home(), PATH: process.env.PATH ?? '' },
        stdio: ['ignore', 'pipe', 'pipe'],
        ...asUser,
      }),
    );
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      `agent: not allowed to listen on port 1 of 127.0.0.1 (EACCES): ports below ${unprivilegedFrom} are for root (choose a --port from ${unprivilegedFrom} up, or --port 0 to pick a free one)\n`,
    );
  },
);

it('--help shows each default, and that without --state the state lives in memory', async () => {
  const result = await runAgent(['sandbox', '--help'], home());
  expect(result.code).toBe(0);
  const help = result.stdout.replace(/\s+/g, ' ');
  for (const shown of [
    '--port <n> port to listen on (default 0: a free port)',
    '--host <addr> address to listen on (default 127.0.0.1)',
    '--seed <n> seed of the thread feed, for a reproducible run (default 1)',
    '--speed <x> sandbox clock speed: 60 resolves a 3-hour thread in 3 minutes (default 1: real time)',
    '--rate <threads/min> new threads per minute of sandbox time (default 1)',
    '(0: off, the default)',
    '(default: none, the state lives in memory and is gone when the sandbox stops)',
    '(default 0)',
  ])
    expect(help).toContain(shown);
});

describe.skipIf(!SCRIPT)('the banner at a terminal', () => {
  afterEach(stopTerminals);
  it.each([
    ['without --state', [], 'its state lives in memory and is gone when it stops (--state <file> keeps it)'],
    ['with --state ~/…', ['--state', '~/sandbox-state.json'], 'its state is kept in '],
  ])('%s says where the state lives', async (_what, flags, said) => {
    const dir = home();
    const run = atTerminal(['sandbox', '--port', '0', ...flags], dir);
    await run.waitFor('Ctrl-C stops the sandbox');
    await run.waitFor(said);
    if (flags.length) expect(run.shown()).toContain(`its state is kept in ${path.join(dir, 'sandbox-state.json')}`);
  });
});
