import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadAnalyzer } from '../../src/analysis/load.js';
import { AnalyzerError, BudgetError } from '../../src/errors.js';
import { writeSettings } from '../../src/settings/settings-file.js';
import { offlineContext } from '../support/context.js';
import { failure } from '../support/failure.js';
import { thread } from '../support/threads.js';
import { T0 } from '../support/timing.js';

// The one loader poll, predict, analyze and backtest use: which analyzer, and the guards around it.

const FIXTURES = path.join(import.meta.dirname, '..', 'fixtures', 'analyzers');
const PROFILE = {
  signal_method: 'onchain',
  conviction_style: 'moderate',
  directional_bias: 'neutral',
  participation: 'active',
} as const;
const KEY = 'hive_0123456789abcdefSECRETKEY';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-loader-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const command = (script: string, ...args: string[]) =>
  [process.execPath, path.join(FIXTURES, script), ...args].map((a) => `'${a}'`).join(' ');

describe('loadAnalyzer', () => {
  it('nothing configured: the built-in analyzer', async () => {
    const { ctx } = offlineContext(dir);
    const { analyzer, config } = await loadAnalyzer(ctx);
    expect([analyzer.name, config.kind]).toEqual(['builtin', 'builtin']);
  });

  it('a command never runs past the deadline it is given, whatever analyzer.timeout says (bounded)', async () => {
    writeSettings(dir, {
      analyzer: 'command',
      'analyzer.command': command('hang.mjs', path.join(dir, 'pid')),
      'analyzer.timeout': 120,
    });
    const { ctx } = offlineContext(dir);
    await expect(loadAnalyzer(ctx, { deadline: T0 + 2_500 })).rejects.toBeInstanceOf(BudgetError);
    const { analyzer } = await loadAnalyzer(ctx, { deadline: T0 + 3_300 });
    const error = await failure(analyzer.analyze(thread('t1', '2026-03-02T08:15:00Z'), PROFILE, []));
    await analyzer.close?.();
    expect(error).toBeInstanceOf(AnalyzerError);
    expect(error.message).toMatch(/timed out after 1\.3 s/);
  });

  it('a fallback that decided is said once, at close', async () => {
    writeSettings(dir, {
      analyzer: 'command',
      'analyzer.command': command('crash.mjs'),
      'analyzer.fallback': 'builtin',
    });
    const { ctx, stderr } = offlineContext(dir);
    const { analyzer } = await loadAnalyzer(ctx, { secrets: [KEY] });
    for (const id of ['t1', 't2']) await analyzer.analyze(thread(id, '2026-03-02T08:15:00Z'), PROFILE, []);
    expect(stderr.text).toBe('');
    await analyzer.close?.();
    expect(stderr.text).toMatch(
      /^agent: the command analyzer failed on 2 thread\(s\), so the built-in analyzer decided \(first: the analyzer command exited with code 3/,
    );
  });
});
