import fs from 'node:fs';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { atTerminal, SCRIPT, stopTerminals } from './terminal.js';

// `agent register` at a terminal, as a newcomer meets it: the address is asked first and reached at once
// (one GET /agent/me without a key, which changes nothing), so a wrong port is found before the other
// answers are typed, not after all of them.

let sandbox: RunningSandbox;
let home: string;
beforeEach(async () => {
  sandbox = await startSandbox({ ratePerMinute: 0 });
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-register-tty-'));
});
afterEach(async () => {
  stopTerminals();
  await sandbox.close();
  fs.rmSync(home, { recursive: true, force: true });
});

const configDir = () => path.join(home, 'cfg');
const ADDRESS = /Service address \(.*\): $/;

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Answers the questions after the address, then waits for the end. */
async function finish(run: ReturnType<typeof atTerminal>): Promise<number | null> {
  for (const [question, answer] of [
    [/Agent name.*: $/, 'tty-agent'],
    [/Signal method.*: $/, 'onchain'],
    [/Conviction style.*: $/, 'moderate'],
    [/Directional bias.*: $/, 'neutral'],
    [/Participation.*: $/, 'active'],
  ] as const) {
    const from = run.shown().length;
    await run.waitFor(question, Math.max(0, from - 200));
    run.type(`${answer}\r`);
  }
  return run.exited;
}

describe.skipIf(!SCRIPT)('register at a terminal reaches the service as soon as the address is given', () => {
  it('nothing listening on a loopback port: says so, asks again, before the other answers', async () => {
    const port = await closedPort();
    const run = atTerminal(['--config-dir', configDir(), 'register'], home);
    await run.waitFor(ADDRESS);
    run.type(`http://127.0.0.1:${port}\r`);
    await run.waitFor(`nothing listens on 127.0.0.1:${port}: is the service running?`);
    const after = run.shown().lastIndexOf('is the service running?');
    await run.waitFor(ADDRESS, after);
    expect(run.shown()).not.toContain('Agent name');
    run.type(`${sandbox.url}\r`);
    expect(await finish(run)).toBe(0);
    expect(run.shown()).toContain('Registered tty-agent');
    expect(JSON.parse(fs.readFileSync(path.join(configDir(), 'state.json'), 'utf8')).baseUrl).toBe(sandbox.url);
  });

  it('https to a port that speaks plain http: says so, and asks again', async () => {
    const run = atTerminal(['--config-dir', configDir(), 'register'], home);
    await run.waitFor(ADDRESS);
    run.type(`${sandbox.url.replace('http:', 'https:')}\r`);
    await run.waitFor('that port speaks plain http');
    const after = run.shown().lastIndexOf('that port speaks plain http');
    await run.waitFor(ADDRESS, after);
    expect(run.shown()).not.toContain('Agent name');
    run.type(`${sandbox.url}\r`);
    expect(await finish(run)).toBe(0);
  });

  it('the probe sends no key and nothing that changes anything: one GET /agent/me, then the registration', async () => {
    const run = atTerminal(['--config-dir', configDir(), 'register'], home);
    await run.waitFor(ADDRESS);
    run.type(`${sandbox.url}\r`);
    expect(await finish(run)).toBe(0);
    expect(sandbox.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /agent/me', 'POST /agent/register']);
    expect(sandbox.requests[0]!.headers['x-api-key']).toBeUndefined();
  });

  it('an address given as a flag that nothing listens on ends the command before any question', async () => {
    const port = await closedPort();
    const run = atTerminal(['--config-dir', configDir(), 'register', '--base-url', `http://127.0.0.1:${port}`], home);
    await run.waitFor(`nothing listens on 127.0.0.1:${port}: is the service running?`);
    expect(await run.exited).toBe(5);
    expect(run.shown()).not.toContain('Agent name');
  });
});

describe.skipIf(!SCRIPT)('cancelling at a question', () => {
  it.each([
    ['Ctrl-C', '\u0003'],
    ['Ctrl-D', '\u0004'],
  ])('%s: the message starts on a line of its own, exit 130, nothing sent', async (_key, bytes) => {
    const run = atTerminal(['--config-dir', configDir(), 'register', '--base-url', sandbox.url], home);
    await run.waitFor(/Agent name.*: $/);
    run.type(bytes);
    expect(await run.exited).toBe(130);
    await run.waitFor('cancelled');
    expect(run.shown()).toMatch(/Agent name[^\n]*: \nagent: cancelled, nothing sent/);
    expect(sandbox.requests.filter((r) => r.method === 'POST')).toEqual([]);
  });
});
