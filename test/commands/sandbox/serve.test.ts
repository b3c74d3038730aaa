import fs from 'node:fs';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { runSandbox, type SandboxOptions } from '../../../src/commands/sandbox/run.js';
import { onlineContext } from '../../support/in-process.js';

// `agent sandbox` serving, in-process: ctx.untilSignal stands for SIGINT/SIGTERM. test/e2e/
// sandbox-command.test.ts runs it as a process and sends the signal.

let home: string;
beforeEach(() => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-sandbox-serve-'));
});
afterEach(() => fs.rmSync(home, { recursive: true, force: true }));

/** Starts the command; `stop` resolves its signal; `url` is read from its first line, as scripts do. */
function serve(options: SandboxOptions) {
  const { ctx, stdout, run } = onlineContext(path.join(home, 'config'), undefined, {
    verbose: true,
    env: { HOME: home },
  });
  let stop: (signal: string) => void = () => {};
  ctx.untilSignal = () => new Promise((resolve) => (stop = resolve));
  const done = run(() => runSandbox(ctx, options));
  const url = (async () => {
    for (let i = 0; i < 500 && !stdout.text.includes('\n'); i++) await new Promise((r) => setTimeout(r, 10));
    return stdout.text.split('\n')[0]!.split(' ').at(-1)!;
  })();
  return { done, url, stop: (signal: string) => stop(signal) };
}

it('prints its address first, serves the interface until the signal, then closes and says so', async () => {
  const sandbox = serve({ port: '0', seed: '7' });
  const url = await sandbox.url;
  expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  const answer = await fetch(`${url}/thread`);
  expect(answer.status).toBe(401);
  await answer.text();
  sandbox.stop('SIGTERM');
  const result = await sandbox.done;
  expect(result.code).toBe(0);
  expect(result.stdout).toBe(`Sandbox listening on ${url}\n`);
  expect(result.stderr).toContain('its state lives in memory and is gone when it stops (--state <file> keeps it)');
  expect(result.stderr).toContain(`Try: agent register --base-url ${url} --name my-agent`);
  expect(result.stderr.trimEnd().split('\n').at(-1)).toBe('Sandbox stopped (SIGTERM).');
  await expect(fetch(`${url}/thread`)).rejects.toThrow();
});

it('--start 4h: its clock starts 4 hours ago, so its threads are dated in the past of this machine', async () => {
  const sandbox = serve({ port: '0', start: '4h', rate: '30', state: '~/sandbox.json' });
  const url = await sandbox.url;
  try {
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
    const answer = await fetch(`${url}/thread?limit=100`, { headers: { 'x-api-key': key } });
    const threads = (await answer.json()) as Array<{ timestamp: string }>;
    expect(threads.length).toBeGreaterThan(0);
    expect(Math.max(...threads.map((t) => Date.parse(t.timestamp)))).toBeLessThan(Date.now() - 3.9 * 3_600_000);
  } finally {
    sandbox.stop('SIGINT');
  }
  const result = await sandbox.done;
  expect(result.stderr).toContain(`its state is kept in ${path.join(home, 'sandbox.json')}`);
});

it.each<[SandboxOptions, RegExp]>([
  [{ speed: 'fast' }, /^agent: --speed must be a number from 0\.001 to 100000 \(got "fast"\)$/],
  [{ port: '70000' }, /^agent: --port must be a whole number from 0 to 65535 \(got "70000"\)$/],
  [{ rate: '-1' }, /^agent: --rate must be a number from 0 to 10000 \(got "-1"\)$/],
  [{ start: 'yesterday' }, /^agent: --start must be an ISO 8601 time or a duration ago such as 4h/],
  [{ start: '4h', export: 'out.json' }, /^agent: --start does not apply with --export/],
  [{ history: '24' }, /^agent: --history only applies with --export$/],
])('%j: a usage error (exit 2), nothing served', async (options, message) => {
  const sandbox = serve(options);
  const result = await sandbox.done;
  expect(result).toMatchObject({ code: 2, stdout: '' });
  expect(result.stderr.trimEnd()).toMatch(message);
});

it('a port in use, and a --host not of this machine: usage errors that say which flag to change', async () => {
  const taken = net.createServer();
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
  const { port } = taken.address() as AddressInfo;
  try {
    expect(await serve({ port: String(port) }).done).toEqual({
      code: 2,
      stdout: '',
      stderr: `agent: port ${port} is already in use on 127.0.0.1 (choose another --port, or --port 0 to pick a free one)\n`,
    });
  } finally {
    await new Promise((resolve) => taken.close(resolve));
  }
  // 192.0.2.1 is reserved for documentation: no machine has it, and listening sends nothing anywhere.
  const elsewhere = await serve({ host: '192.0.2.1' }).done;
  expect(elsewhere.code).toBe(2);
  expect(elsewhere.stderr).toContain(
    'agent: cannot listen on 192.0.2.1: it is not an address of this machine (check --host)\n',
  );
});

it('restarted with the same --start, it goes on from its saved clock, says so, and shows the clock', async () => {
  const options = { port: '0', start: '48h', speed: '20000', rate: '30', state: '~/sandbox.json' };
  const first = serve(options);
  await first.url;
  // 20000 times real time: a few hundred real ms are hours of sandbox time, with threads in them.
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  first.stop('SIGINT');
  expect((await first.done).code).toBe(0);
  const saved = JSON.parse(fs.readFileSync(path.join(home, 'sandbox.json'), 'utf8')) as {
    threads: Array<{ timestampMs: number }>;
  };
  const savedClock = Math.max(...saved.threads.map((t) => t.timestampMs));
  expect(savedClock).toBeGreaterThan(Date.now() - 48 * 3_600_000);

  const again = serve(options);
  await again.url;
  again.stop('SIGINT');
  const result = await again.done;
  expect(result.stderr).toMatch(/--start 48h would move the clock saved in .*sandbox\.json back \d+(\.\d+)? hours?/);
  const shown = /its clock reads (\S+ \S+) UTC/.exec(result.stderr)?.[1];
  expect(Date.parse(`${shown?.replace(' ', 'T')}Z`)).toBeGreaterThanOrEqual(Math.floor(savedClock / 60_000) * 60_000);
});
