import path from 'node:path';
import { expect, it } from 'vitest';
import { runPoll } from '../../../src/commands/poll/run.js';
import { runRegister } from '../../../src/commands/register/run.js';
import type { Context } from '../../../src/context.js';
import { createNodeTransport } from '../../../src/http/node-transport.js';
import { sandboxPerTest } from '../../support/sandbox-per-test.js';
import { makeOutput } from '../../support/streams.js';
import { fakeTiming } from '../../support/timing.js';

// The batch tuning (V8 flags, main.ts) must never reach a run that finds nothing new: it would cost that
// run Node's code cache for every built-in module loaded after it, and the build's code cache is taken
// from exactly such a run.

const world = sandboxPerTest('agent-poll-tuning-', { ratePerMinute: 0 });

it('a poll tunes itself for its batch once, after the first page shows new threads, and not when nothing is new', async () => {
  const transport = createNodeTransport();
  let tuned = 0;
  const ctx: Context = {
    output: makeOutput().output,
    env: {},
    configDir: path.join(world.dir, 'config'),
    baseUrl: world.sandbox.url,
    timing: fakeTiming({ start: Date.now() }),
    pid: process.pid,
    transport: () => transport,
    tuneForBatch: async () => {
      tuned += 1;
    },
  };
  try {
    await runRegister(ctx, {
      name: 'tuning-agent',
      signalMethod: 'onchain',
      convictionStyle: 'moderate',
      directionalBias: 'neutral',
      participation: 'active',
    });
    const polled = { ...ctx, baseUrl: undefined };
    world.sandbox.addThread({ id: 'old', timestamp: new Date(Date.now() - 60 * 60_000).toISOString(), locked: true });
    await runPoll(polled, {});
    expect(tuned).toBe(1);

    await runPoll(polled, {});
    expect(tuned).toBe(1);

    for (let i = 0; i < 120; i += 1)
      world.sandbox.addThread({ id: `t${i}`, timestamp: new Date(Date.now() - (200 - i) * 1000).toISOString() });
    await runPoll(polled, {});
    expect(tuned).toBe(2);
    expect(world.sandbox.comments().length).toBeGreaterThan(0);
  } finally {
    transport.close();
  }
});
