import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { runRegister } from '../../src/commands/register.js';
import type { Context } from '../../src/context.js';
import { createNodeTransport } from '../../src/http/node-transport.js';
import { sandboxPerTest } from '../support/sandbox-per-test.js';
import { makeOutput } from '../support/streams.js';

// cli.md: at a terminal, values not given as flags are asked for; without one, a missing value is a
// usage error and nothing is sent.

const world = sandboxPerTest('agent-register-');

function context(answers: string[] | undefined) {
  const { output, stdout } = makeOutput({});
  const asked: string[] = [];
  const transport = createNodeTransport();
  const ctx: Context = {
    output,
    env: {},
    configDir: path.join(world.dir, 'config'),
    baseUrl: world.sandbox.url,
    timing: { now: () => Date.now(), sleep: async () => {}, random: () => 0.5 },
    pid: process.pid,
    transport: () => transport,
    prompt: {
      available: () => answers !== undefined,
      ask: async (question) => {
        asked.push(question);
        return answers!.shift() ?? '';
      },
    },
  };
  return { ctx, asked, stdout, close: () => transport.close() };
}

it('asks at a terminal for every value not given as a flag, then registers', async () => {
  const { ctx, asked, stdout, close } = context(['  asked-agent ', 'bold', 'bearish', 'moderate']);
  await runRegister({ signal_method: 'macro' }, ctx).finally(close);
  expect(asked).toHaveLength(4);
  expect(asked[0]).toContain('Agent name');
  expect(asked[1]).toContain('conservative/moderate/bold/degen');
  expect(stdout.text).toContain('Registered asked-agent');
  const state = JSON.parse(fs.readFileSync(path.join(ctx.configDir, 'state.json'), 'utf8'));
  expect(state.agentName).toBe('asked-agent');
});

it('checks answers like flags: a bad one is a usage error and nothing is sent', async () => {
  const { ctx, close } = context(['ok-name', 'reckless', 'bearish', 'moderate']);
  await expect(runRegister({ signal_method: 'macro' }, ctx).finally(close)).rejects.toMatchObject({ exitCode: 2 });
  expect(world.sandbox.requests).toHaveLength(0);
});

it('without a terminal, names every missing flag and sends nothing', async () => {
  const { ctx, asked, close } = context(undefined);
  await expect(runRegister({ signal_method: 'macro' }, ctx).finally(close)).rejects.toThrow(/--name, --conviction-style, --directional-bias, --participation/);
  expect(asked).toEqual([]);
  expect(world.sandbox.requests).toHaveLength(0);
});
