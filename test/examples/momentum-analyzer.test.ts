import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createCommandAnalyzer } from '../../src/analysis/command/analyzer.js';
import { analyzeThread } from '../../src/analysis/index.js';
import type { Trace } from '../../src/analysis/types.js';
import { profile, thread } from '../analysis/fixtures.js';
import { commandLine } from '../analysis/command/support.js';

// The example a user copies must keep working with the agent: it is run here exactly as docs/analyzer.md
// tells a user to set it, through the command analyzer and the policy.

const EXAMPLE = fileURLToPath(new URL('../../examples/momentum-analyzer.mjs', import.meta.url));

function momentum(onStderr?: (line: string) => void) {
  return createCommandAnalyzer({
    commandLine: commandLine(process.execPath, EXAMPLE),
    timeoutMs: 20_000,
    env: { PATH: process.env.PATH },
    secrets: [],
    ...(onStderr ? { onStderr } : {}),
  });
}

describe('examples/momentum-analyzer.mjs', () => {
  it('answers a signal for price-action words, which the policy sizes', async () => {
    const stderr: string[] = [];
    const { decision, trace } = await analyzeThread(
      momentum((line) => stderr.push(line)),
      thread('Bitcoin breaks out to new highs as the rally continues', { id: 'th_1' }),
      profile(),
    );
    expect(trace[1]).toMatch(/^command: ran .+, answered a signal \(strength \+0\.91, 3 phrase\(s\) of evidence\)$/);
    expect(decision).toMatchObject({ action: 'post' });
    expect(decision.action === 'post' && decision.conviction).toBeGreaterThan(0);
    expect(stderr[0]).toBe('momentum: thread th_1 on c/bitcoin (σ 0.9%)');
  });

  it('answers a decision for a quoted move, checked by the policy', async () => {
    const trace: Trace = [];
    const eth = thread('ETH is down 6% today after a sell-off', { cell: 'ethereum', projectId: 'c/ethereum' });
    const output = await momentum().analyze(eth, profile(), trace);
    expect(output).toEqual({
      kind: 'decision',
      action: 'post',
      conviction: -1.5,
      text: 'momentum after a reported drop, with sell-off',
    });
    const { decision } = await analyzeThread(momentum(), eth, profile());
    expect(decision).toEqual({
      action: 'post',
      conviction: -1.5,
      text: 'Bearish on c/ethereum: momentum after a reported drop, with sell-off. Expect -1.5% in 3h.',
    });
  });

  it.each([
    ['no price action', 'gm frens, ETF news later', profile(), 'momentum: no price action in the thread'],
    [
      'a move against the bias that the words do not confirm',
      'SOL up 12% in a day',
      profile({ directional_bias: 'bearish' }),
      'momentum: a +12% move against the bearish bias, and the words do not confirm it',
    ],
  ])('skips %s', async (_name, text, agentProfile, reason) => {
    const { decision } = await analyzeThread(momentum(), thread(text), agentProfile);
    expect(decision).toEqual({ action: 'skip', skipKind: 'analyzer-skip', reason });
  });

  it('exits 2 with a message on input it cannot read', () => {
    const run = spawnSync(process.execPath, [EXAMPLE], { input: 'not json', encoding: 'utf8' });
    expect(run.status).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('stdin is not one JSON object');
  });
});
