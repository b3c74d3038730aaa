import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { runRegister } from '../../../src/commands/register/run.js';
import type { Context } from '../../../src/context.js';
import { createNodeTransport } from '../../../src/http/node-transport.js';
import { sandboxPerTest } from '../../support/sandbox-per-test.js';
import { makeOutput } from '../../support/streams.js';

// docs/cli.md: at a terminal, values not given as flags are asked for; without one, a missing value is a
// usage error and nothing is sent.

const world = sandboxPerTest('agent-register-');

function context(answers: string[] | undefined, { noAddress = false } = {}) {
  const { output, stdout } = makeOutput({});
  const asked: string[] = [];
  const transport = createNodeTransport();
  const ctx: Context = {
    output,
    env: {},
    configDir: path.join(world.dir, 'config'),
    baseUrl: noAddress ? undefined : world.sandbox.url,
    timing: { now: () => Date.now(), sleep: async () => {}, random: () => 0.5 },
    pid: process.pid,
    transport: () => transport,
    prompt: {
      available: () => answers !== undefined,
      ask: async (question) => {
        asked.push(question);
        // A person who keeps giving bad answers is asked again; a test that runs out of answers stops.
        if (!answers!.length) throw new Error(`asked once too often: ${question}`);
        return answers!.shift()!;
      },
    },
  };
  return { ctx, asked, stdout, close: () => transport.close() };
}

it('asks at a terminal for every value not given as a flag, then registers', async () => {
  const { ctx, asked, stdout, close } = context(['  asked-agent ', 'bold', 'bearish', 'moderate']);
  await runRegister(ctx, { signalMethod: 'macro' }).finally(close);
  expect(asked).toHaveLength(4);
  expect(asked[0]).toContain('Agent name');
  expect(asked[1]).toContain('conservative/moderate/bold/degen');
  expect(stdout.text).toContain('Registered asked-agent');
  const state = JSON.parse(fs.readFileSync(path.join(ctx.configDir, 'state.json'), 'utf8'));
  expect(state.agentName).toBe('asked-agent');
});

it('checks each answer as it is given, and asks again with the reason until it is valid', async () => {
  const { ctx, asked, stdout, close } = context(['ab', 'ok-name', 'reckless', 'BOLD', 'bearish', 'moderate']);
  await runRegister(ctx, { signalMethod: 'macro' }).finally(close);
  expect(asked).toHaveLength(6);
  expect(asked[1]).toMatch(/^the name must be 3-50 characters \(got 2\)\. Agent name/);
  expect(asked[3]).toMatch(
    /^the conviction style must be one of conservative, moderate, bold, degen \(got "reckless"\)\. Conviction style/,
  );
  // The reasons name what was asked, never a flag the user did not type.
  expect(asked.join('\n')).not.toContain('--');
  expect(stdout.text).toContain('Registered ok-name');
  // The address was reached before the first question (without a key), then the registration sent.
  expect(world.sandbox.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /agent/me', 'POST /agent/register']);
});

it('without an address, asks for it first, and checks it as it is given', async () => {
  const { ctx, asked, stdout, close } = context(
    [
      'ftp://service.example',
      'http://service.example',
      world.sandbox.url,
      'addr-agent',
      'onchain',
      'bold',
      'neutral',
      'active',
    ],
    { noAddress: true },
  );
  await runRegister(ctx, {}).finally(close);
  expect(asked[0]).toMatch(/^Service address/);
  expect(asked[1]).toMatch(/^the service address must be http\(s\), not ftp:\. Service address/);
  expect(asked[2]).toMatch(/^refusing plain http to service\.example/);
  expect(asked[3]).toMatch(/^Agent name/);
  expect(asked[4]).toMatch(/^Signal method, .*\(technical\/fundamental\/sentiment\/onchain\/macro\): $/);
  expect(stdout.text).toContain(`Registered addr-agent`);
  expect(stdout.text).toContain(world.sandbox.url);
});

it('checks the flags it was given before asking anything', async () => {
  const { ctx, asked, close } = context(['unused']);
  await expect(runRegister(ctx, { name: 'ab' }).finally(close)).rejects.toThrow(/^--name must be 3-50 characters/);
  expect(asked).toEqual([]);
  expect(world.sandbox.requests).toHaveLength(0);
});

it('without a terminal or an address, says both at once and sends nothing', async () => {
  const { ctx, close } = context(undefined, { noAddress: true });
  await expect(runRegister(ctx, { name: 'no-address' }).finally(close)).rejects.toThrow(
    /^no service address: .*; missing --signal-method, /,
  );
  expect(world.sandbox.requests).toHaveLength(0);
});

it('without a terminal, names every missing flag and sends nothing', async () => {
  const { ctx, asked, close } = context(undefined);
  await expect(runRegister(ctx, { signalMethod: 'macro' }).finally(close)).rejects.toThrow(
    /--name, --conviction-style, --directional-bias, --participation/,
  );
  expect(asked).toEqual([]);
  expect(world.sandbox.requests).toHaveLength(0);
});
