import { expect, it } from 'vitest';
import type { CellMetrics } from '../../src/backtest/metrics.js';
import { headingLine, tableLines } from '../../src/backtest/table.js';

const metrics = (overrides: Partial<CellMetrics> = {}): CellMetrics => ({
  threads: 3,
  posted: 0,
  skipped: 2,
  failed: 1,
  right: 0,
  coverage: 0,
  accuracy: null,
  mae: null,
  honey: 0,
  wax: 0,
  ...overrides,
});

it('shows a rate or MAE that does not exist as "-", and cuts an overlong cell name', () => {
  const lines = tableLines({
    overall: metrics({
      threads: 13,
      posted: 10,
      skipped: 2,
      right: 7,
      coverage: 0.769,
      accuracy: 0.7,
      mae: 1.234,
      honey: 140,
      wax: 15,
    }),
    cells: {
      'a-very-long-cell-name-from-some-export': metrics({
        threads: 10,
        posted: 10,
        skipped: 0,
        failed: 0,
        coverage: 1,
        accuracy: 0.7,
        mae: 1.23,
      }),
      quiet: metrics(),
    },
    threads: [],
  });
  expect(lines).toEqual([
    'cell                      threads  posted  skipped  failed  coverage  accuracy   MAE  honey  wax',
    'all                            13      10        2       1     76.9%     70.0%  1.23    140   15',
    'a-very-long-cell-name-f…       10      10        0       0    100.0%     70.0%  1.23      0    0',
    'quiet                           3       0        2       1      0.0%         -     -      0    0',
  ]);
});

it('says which profile fields were given and counts invalid threads in words that fit the number', () => {
  const profile = {
    signal_method: 'onchain',
    conviction_style: 'bold',
    directional_bias: 'bearish',
    participation: 'active',
  } as const;
  expect(
    headingLine({
      file: 'f.json',
      analyzer: 'llm',
      profile,
      given: ['signal_method', 'conviction_style', 'directional_bias', 'participation'],
      invalid: 1,
    }),
  ).toBe(
    'Backtest of f.json: analyzer llm, profile --signal-method onchain --conviction-style bold --directional-bias bearish --participation active (all given); 1 invalid thread left out.',
  );
  expect(headingLine({ file: 'f.json', analyzer: 'llm', profile, given: ['directional_bias'], invalid: 0 })).toContain(
    '(--directional-bias given, the rest defaults); 0 invalid threads',
  );
});
