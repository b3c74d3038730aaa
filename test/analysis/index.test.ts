import { describe, expect, it } from 'vitest';
import * as analysis from '../../src/analysis/index.js';
import { analyzeThread, builtinAnalyzer } from '../../src/analysis/index.js';
import type { Analyzer } from '../../src/analysis/types.js';
import { profile, thread } from './fixtures.js';

describe('analyzeThread', () => {
  it('reads with the built-in analyzer, then applies the policy', async () => {
    const { decision, trace } = await analyzeThread(
      builtinAnalyzer,
      thread('Binance halts withdrawals after a $40M exploit', { cell: 'bnb', projectId: 'c/bnb' }),
      profile({ signal_method: 'fundamental', conviction_style: 'bold' }),
    );
    expect(decision).toEqual({
      action: 'post',
      // The halt is the news; the exploit it follows is its context, and counts half.
      conviction: -2.3,
      text: 'Bearish on c/bnb: withdrawals halted, hack drains funds. Expect -2.3% in 3h.',
    });
    expect(trace[0]).toBe('analyzer: builtin');
    expect(trace.some((line) => line.startsWith('builtin: '))).toBe(true);
    expect(trace.at(-1)).toBe(`policy: post -2.3: ${decision.action === 'post' ? decision.text : ''}`);
  });

  it('skips a thread with nothing to read', async () => {
    const { decision } = await analyzeThread(builtinAnalyzer, thread('gm'), profile());
    expect(decision).toEqual({ action: 'skip', reason: 'no evidence: nothing in the thread reads bullish or bearish' });
  });

  it('checks a decision from another analyzer', async () => {
    const llm: Analyzer = {
      name: 'llm',
      analyze: async (_thread, _profile, trace) => {
        trace.push('llm: asked');
        return {
          kind: 'decision',
          action: 'post',
          conviction: 12,
          text: 'To the moon, ETF demand is insane right now.',
        };
      },
    };
    const { decision, trace } = await analyzeThread(
      llm,
      thread('anything'),
      profile({ conviction_style: 'conservative' }),
    );
    expect(decision).toMatchObject({ action: 'post', conviction: 0.7 });
    expect(trace.slice(0, 2)).toEqual(['analyzer: llm', 'llm: asked']);
    expect(trace.some((line) => line.includes('clamped to +0.7'))).toBe(true);
  });

  it('lets an analyzer failure reach the caller', async () => {
    const broken: Analyzer = { name: 'broken', analyze: () => Promise.reject(new Error('boom')) };
    await expect(analyzeThread(broken, thread('x'), profile())).rejects.toThrow('boom');
  });

  it('keeps a small export surface', () => {
    expect(Object.keys(analysis).sort()).toEqual(['analyzeThread', 'builtinAnalyzer', 'decide', 'fitText']);
  });
});
