import { describe, expect, it } from 'vitest';
import * as analysis from '../../src/analysis/index.js';
import { analyzeThread, builtinAnalyzer } from '../../src/analysis/index.js';
import { withFallback } from '../../src/analysis/fallback.js';
import type { Analyzer } from '../../src/analysis/types.js';
import { AnalyzerError } from '../../src/errors.js';
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
    expect(decision).toEqual({
      action: 'skip',
      skipKind: 'no-evidence',
      reason: 'no evidence: nothing in the thread reads bullish or bearish',
    });
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

  it('says which analyzer decided: one of ours by its name, the fallback when it took over, none for others', async () => {
    const text = 'Spot ETF inflows hit a record as whales withdraw coins from exchanges.';
    expect((await analyzeThread(builtinAnalyzer, thread(text), profile())).by).toEqual({ analyzer: 'builtin' });
    const command: Analyzer = { name: 'command', analyze: builtinAnalyzer.analyze };
    const failing: Analyzer = { name: 'command', analyze: () => Promise.reject(new AnalyzerError('crashed')) };
    expect((await analyzeThread(withFallback(command, builtinAnalyzer), thread(text), profile())).by).toEqual({
      analyzer: 'command',
    });
    expect((await analyzeThread(withFallback(failing, builtinAnalyzer), thread(text), profile())).by).toEqual({
      analyzer: 'builtin',
      fallback: true,
    });
    const other: Analyzer = { name: 'scripted', analyze: builtinAnalyzer.analyze };
    expect((await analyzeThread(other, thread(text), profile())).by).toBeUndefined();
  });

  it('lets an analyzer failure reach the caller', async () => {
    const broken: Analyzer = { name: 'broken', analyze: () => Promise.reject(new Error('boom')) };
    await expect(analyzeThread(broken, thread('x'), profile())).rejects.toThrow('boom');
  });

  it('keeps a small export surface', () => {
    expect(Object.keys(analysis).sort()).toEqual(['analyzeThread', 'builtinAnalyzer', 'decide', 'fitText']);
  });
});
