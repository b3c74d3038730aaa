import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { runPoll } from '../../../src/commands/poll/run.js';
import { runRegister } from '../../../src/commands/register/run.js';
import type { Context } from '../../../src/context.js';
import { BudgetError } from '../../../src/errors.js';
import { createNodeTransport } from '../../../src/http/node-transport.js';
import type { Transport } from '../../../src/http/transport.js';
import { writeSettings } from '../../../src/settings/settings-file.js';
import { failure } from '../../support/failure.js';
import { sandboxPerTest } from '../../support/sandbox-per-test.js';
import { makeOutput } from '../../support/streams.js';
import { fakeTiming } from '../../support/timing.js';

// bounded with a slow analyzer: a chunk of threads is started only when the run could wait out the analyzer's
// whole timeout and still send the posts that follow; the rest stay due for the next run.

const RECORDER = path.join(import.meta.dirname, '..', '..', 'e2e', 'fixtures', 'recording-analyzer.mjs');

const world = sandboxPerTest('agent-poll-budget-');

/** Each POST takes `postMs` of the run's clock. */
function context(postMs: number) {
  const { output } = makeOutput();
  const timing = fakeTiming({ start: Date.now() });
  const real = createNodeTransport();
  const transport: Transport = {
    send: (request) => {
      if (request.method === 'POST' && request.url.pathname.startsWith('/comment/')) timing.advance(postMs);
      return real.send(request);
    },
    close: () => real.close(),
  };
  const ctx: Context = {
    output,
    env: {},
    configDir: path.join(world.dir, 'config'),
    baseUrl: world.sandbox.url,
    timing,
    pid: process.pid,
    transport: () => transport,
  };
  return { ctx, close: () => real.close() };
}

it('a command analyzer with a 120 s timeout: after a first chunk that took 24 s, the rest wait for the next run (its posts need time too)', async () => {
  const { ctx, close } = context(6_000);
  try {
    await runRegister(ctx, {
      name: 'budget-agent',
      signalMethod: 'onchain',
      convictionStyle: 'moderate',
      directionalBias: 'neutral',
      participation: 'active',
    });
    writeSettings(ctx.configDir, {
      analyzer: 'command',
      'analyzer.command': `'${process.execPath}' '${RECORDER}' '${world.dir}'`,
      'analyzer.timeout': 120,
    });
    for (let i = 0; i < 8; i += 1)
      world.sandbox.addThread({
        id: `t${i}`,
        text: 'Whales move coins to exchanges.',
        project_id: 'c/bitcoin',
        timestamp: new Date(Date.now() - (10 - i) * 60_000).toISOString(),
      });

    const error = await failure(runPoll({ ...ctx, baseUrl: undefined }, {}));
    expect(error).toBeInstanceOf(BudgetError);
    // Newest first: the first chunk of 4 was read and posted (4 × 6 s); 24 + 120 s fit in 150 s, but not
    // with the kill grace and the posts' reserve: 24 + 120 + 2 + 10 > 150.
    expect(
      world.sandbox
        .comments()
        .map((c) => c.thread_id)
        .sort(),
    ).toEqual(['t4', 't5', 't6', 't7']);
    const state = JSON.parse(fs.readFileSync(path.join(ctx.configDir, 'state.json'), 'utf8'));
    expect(Object.keys(state.journal).sort()).toEqual(['t4', 't5', 't6', 't7']);
    expect(state.cursor).toBeNull();
  } finally {
    close();
  }

  const next = context(0);
  try {
    await runPoll({ ...next.ctx, baseUrl: undefined }, {});
    expect(world.sandbox.comments()).toHaveLength(8);
  } finally {
    next.close();
  }
});
