import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runPredict } from '../../../src/commands/predict/run.js';
import { parseConviction } from '../../../src/commands/predict/own-values.js';
import { runRegister } from '../../../src/commands/register/run.js';
import type { Context } from '../../../src/context.js';
import { createNodeTransport } from '../../../src/http/node-transport.js';
import { sandboxPerTest } from '../../support/sandbox-per-test.js';
import { makeOutput } from '../../support/streams.js';

describe('parseConviction', () => {
  it.each([
    ['1.5', 1.5],
    ['-2', -2],
    ['+0.7', 0.7],
    ['1.5%', 1.5],
    ['.5', 0.5],
    [' -0.25 ', -0.3],
    ['-99.9', -99.9],
    ['1000', 1000],
  ])('reads %j as %d', (raw, value) => {
    expect(parseConviction(raw)).toBe(value);
  });

  it.each([
    '0x10',
    '1e1',
    'Infinity',
    '-Infinity',
    'NaN',
    '',
    ' ',
    '1 5',
    '1,5',
    '1.5%%',
    '%',
    '+-1',
    '1.',
    '--1',
    '١٢',
  ])('refuses %j as not a decimal, with exit 2', (raw) => {
    expect(() => parseConviction(raw)).toThrow(
      expect.objectContaining({ exitCode: 2, message: expect.stringContaining('decimal number') }),
    );
  });

  it.each([
    ['-100', 'cannot fall 100 %'],
    ['-150', 'cannot fall 100 %'],
    ['99999999999', 'not a 3-hour move'],
    ['0.04', 'rounds to 0.0'],
  ])('refuses %j (%s)', (raw, why) => {
    expect(() => parseConviction(raw)).toThrow(
      expect.objectContaining({ exitCode: 2, message: expect.stringContaining(why) }),
    );
  });
});

// In-process, so a terminal's answer can be given: the profile is moderate, and on c/bitcoin (σ 0.9 %)
// its largest size is 1.3 %.
describe('a size beyond the profile is confirmed before it is posted', () => {
  const world = sandboxPerTest('agent-predict-size-');

  async function registered(answers: string[] | undefined) {
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
          return answers?.shift() ?? '';
        },
      },
    };
    await runRegister(ctx, {
      name: 'size-agent',
      signalMethod: 'sentiment',
      convictionStyle: 'moderate',
      directionalBias: 'neutral',
      participation: 'active',
    });
    world.sandbox.addThread({ id: 'big', project_id: 'c/bitcoin', timestamp: new Date().toISOString() });
    const posts = () => world.sandbox.requests.filter((r) => r.method === 'POST' && r.path.startsWith('/comment/'));
    return { ctx, asked, stdout, posts, close: () => transport.close() };
  }

  it('at a terminal: asks, and "n" (or nothing) sends nothing', async () => {
    const { ctx, asked, posts, close } = await registered(['n']);
    await expect(runPredict(ctx, 'big', { conviction: '5' }).finally(close)).rejects.toMatchObject({
      exitCode: 2,
      message: expect.stringContaining('not confirmed'),
    });
    expect(asked).toEqual([
      expect.stringContaining(
        '+5.0% on c/bitcoin is beyond the largest size your profile (moderate) posts there, ±1.3%',
      ),
    ]);
    expect(posts()).toHaveLength(0);
  });

  it('at a terminal: "y" posts it', async () => {
    const { ctx, posts, close } = await registered(['y']);
    await runPredict(ctx, 'big', { conviction: '-5%' }).finally(close);
    expect(posts()).toHaveLength(1);
    expect(world.sandbox.comments()[0]!.conviction).toBe(-5);
  });

  it('within the profile it is not asked', async () => {
    const { ctx, asked, posts, close } = await registered([]);
    await runPredict(ctx, 'big', { conviction: '1.3' }).finally(close);
    expect(asked).toEqual([]);
    expect(posts()).toHaveLength(1);
  });

  it('off a terminal it is refused with the hint to add --yes; with --yes it is posted', async () => {
    const { ctx, posts, close } = await registered(undefined);
    try {
      await expect(runPredict(ctx, 'big', { conviction: '5' })).rejects.toMatchObject({
        exitCode: 2,
        hint: expect.stringContaining('--yes'),
      });
      expect(posts()).toHaveLength(0);
      await runPredict(ctx, 'big', { conviction: '5', yes: true });
      expect(posts()).toHaveLength(1);
    } finally {
      close();
    }
  });
});
