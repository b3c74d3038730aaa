import { describe, expect, it } from 'vitest';
import type { HistoryEntry } from '../../../src/history/entry.js';
import { parseRecord } from '../../../src/history/entry.js';
import { aggregate } from '../../../src/commands/stats/aggregate.js';
import { SKIP_KINDS, type SkipKind } from '../../../src/domain/skip.js';
import { makeOutput } from '../../support/streams.js';
import { fitLines, type Line } from '../../../src/output/wrap.js';
import { renderStats, sparkline } from '../../../src/commands/stats/render.js';

/** Lines as the output prints them: at a terminal (colour allowed or not) or elsewhere. */
function printed(lines: readonly Line[], { tty = false, noColor = false } = {}): string {
  const { output, stdout } = makeOutput({ stdoutTTY: tty, noColor });
  output.result(lines, {});
  return stdout.text;
}

const NOW = Date.parse('2026-11-25T12:00:00.000Z');
const DAY = 86_400_000;
const at = (msAgo: number) => new Date(NOW - msAgo).toISOString();

const run = (msAgo: number, extra: Partial<NonNullable<HistoryEntry['summary']>> = {}): HistoryEntry => ({
  ts: at(msAgo),
  kind: 'run',
  summary: { command: 'poll', posted: 0, skipped: 0, failed: 0, exitCode: 0, elapsedMs: 50, ...extra },
});

const WEEK: HistoryEntry[] = [
  run(8 * DAY),
  { ts: at(8 * DAY), kind: 'post', threadId: 'old', cell: 'bitcoin', conviction: 9, text: 'outside the week' },
  { ts: at(3 * DAY), kind: 'post', threadId: 'a', cell: 'bitcoin', conviction: 1.2, text: 'up' },
  { ts: at(3 * DAY), kind: 'post', threadId: 'b', cell: 'solana', conviction: -0.8, text: 'down' },
  { ts: at(3 * DAY), kind: 'skip', threadId: 'c', cell: 'solana', reason: 'no evidence' },
  run(3 * DAY, { posted: 2, skipped: 4, locked: 3, counters: { honey: 10, wax: 2, predictions: 40 } }),
  { ts: at(DAY), kind: 'fail', threadId: 'd', cell: 'pepe', reason: 'the service failed (503)' },
  run(DAY, { failed: 1, exitCode: 5, counters: { honey: 14, wax: 3, predictions: 42 } }),
  { ...run(DAY / 2), summary: { command: 'predict', posted: 0, skipped: 0, failed: 0, exitCode: 0, elapsedMs: 20 } },
];

describe('aggregate', () => {
  it('sums up the period only: runs, posts and their mean size, skips by reason (locked counted), cells, days, counters', () => {
    const stats = aggregate(WEEK, NOW - 7 * DAY, NOW);
    expect(stats.runs).toEqual({ poll: 2, predict: 1, failed: 1, failedPolls: 1, failedPredicts: 0 });
    expect(stats.posts).toBe(2);
    expect(stats.meanAbsConviction).toBe(1);
    expect(stats.skips).toEqual({
      total: 4,
      locked: 3,
      byReason: [
        { skipKind: 'locked', reason: SKIP_KINDS.locked, count: 3 },
        { skipKind: 'no-evidence', reason: SKIP_KINDS['no-evidence'], count: 1 },
      ],
    });
    expect(stats.failures).toBe(1);
    expect(stats.cells).toEqual([
      { cell: 'solana', posts: 1, skips: 1, meanAbsConviction: 0.8 },
      { cell: 'bitcoin', posts: 1, skips: 0, meanAbsConviction: 1.2 },
    ]);
    expect(stats.postsPerDay).toHaveLength(8);
    expect(stats.postsPerDay.reduce((n, d) => n + d.posts, 0)).toBe(2);
    expect(stats.counters.map((c) => c.honey)).toEqual([10, 14]);
  });
});

describe('skips by kind', () => {
  // Written as a week of polls writes them: each strength its own sentence, most lines from before skips
  // carried a kind (only the reason), some after (the kind beside it), and the locked ones counted per run.
  const below = (n: number) => `strength +0.${10 + n} is below the moderate threshold 0.25`;
  const skip = (n: number, reason: string, skipKind?: string): HistoryEntry => ({
    ts: at(2 * DAY + n),
    kind: 'skip',
    threadId: `s${n}`,
    cell: 'bitcoin',
    reason,
    ...(skipKind ? { skipKind } : {}),
  });
  const HISTORY: HistoryEntry[] = [
    ...Array.from({ length: 12 }, (_, n) => skip(n, below(n))),
    ...Array.from({ length: 3 }, (_, n) => skip(20 + n, below(n + 3), 'below-threshold')),
    ...Array.from({ length: 4 }, (_, n) => skip(30 + n, `the evidence cancels out (strength +0.0${n})`)),
    skip(40, 'no evidence: nothing in the thread reads bullish or bearish', 'no-evidence'),
    skip(41, 'the model saw nothing new', 'analyzer-skip'),
    skip(42, 'nothing to add today'),
    skip(43, 'a kind a later version knows', 'a-later-kind'),
    run(2 * DAY, { skipped: 25, locked: 2 }),
  ];

  it('counts each kind once, whatever the numbers in its reasons, and old lines by their words', () => {
    const { skips } = aggregate(HISTORY, NOW - 7 * DAY, NOW);
    expect(skips.total).toBe(25);
    expect(skips.byReason).toEqual([
      { skipKind: 'below-threshold', reason: SKIP_KINDS['below-threshold'], count: 15 },
      { skipKind: 'mixed-evidence', reason: SKIP_KINDS['mixed-evidence'], count: 4 },
      { skipKind: 'locked', reason: SKIP_KINDS.locked, count: 2 },
      { skipKind: 'other', reason: SKIP_KINDS.other, count: 2 },
      { skipKind: 'no-evidence', reason: SKIP_KINDS['no-evidence'], count: 1 },
      { skipKind: 'analyzer-skip', reason: SKIP_KINDS['analyzer-skip'], count: 1 },
    ]);
  });

  it('shows every skip: the rows under "skips by reason" add up to the total', () => {
    const many = [
      ...HISTORY,
      ...(Object.keys(SKIP_KINDS) as SkipKind[]).map((kind, n) => skip(100 + n, `reason ${n}`, kind)),
    ];
    const stats = aggregate(many, NOW - 7 * DAY, NOW);
    const text = printed(renderStats(stats, { width: undefined }));
    const rows = text.split('skips by reason:\n')[1]?.split('\n\n')[0]?.split('\n') ?? [];
    const counted = rows.reduce((sum, row) => sum + Number(row.trim().split(/\s/)[0]), 0);
    expect(counted).toBe(stats.skips.total);
    expect(text).toContain(`${SKIP_KINDS['below-threshold']}`);
  });
});

describe('rendering', () => {
  const stats = aggregate(WEEK, NOW - 7 * DAY, NOW);

  it('off a terminal: plain rows, every number readable, no escape codes', () => {
    const text = printed(renderStats(stats, { width: undefined }));
    expect(text).toContain('2 polls (1 ended with an error), 1 predicts by hand');
    expect(text).toContain('posted 2, mean size 1.00%; skipped 4; failed 1');
    expect(text).toMatch(/solana +1 +1 +0\.80%/);
    expect(text).toMatch(/2026-11-22 +2/);
    expect(text).toMatch(/2026-11-22 +10 +2 +40/);
    // The counters are an hourly snapshot: how old the last one is, and where the present numbers are.
    expect(text).toMatch(/\nlast snapshot \d{4}-\d\d-\d\d \d\d:\d\d UTC, 24 h ago \(`agent me` asks the service now\)/);
    expect(text).not.toMatch(/\u001b/);
  });

  it('at a terminal: sparklines that fit its width, coloured only when colour is allowed', () => {
    const lines = renderStats(stats, { width: 80 });
    const plain = printed(lines, { tty: true, noColor: true });
    expect(plain).toMatch(/posts a day +[\u2581-\u2588]{8}/);
    expect(plain).toMatch(/honey +[\u2581-\u2588]{2} +10 -> 14/);
    expect(plain).not.toMatch(/\u001b/);
    expect(printed(lines, { tty: true })).toMatch(/\u001b\[33m[\u2581-\u2588]+\u001b\[39m/);
    const twoMonths = aggregate(WEEK, NOW - 60 * DAY, NOW);
    for (const width of [30, 40, 60, 100]) {
      const shown = printed(fitLines(renderStats(twoMonths, { width }), width), { tty: true, noColor: true });
      for (const line of shown.trimEnd().split('\n'))
        expect(Array.from(line).length, `${width}: ${line}`).toBeLessThanOrEqual(width);
      expect(shown).toMatch(/posts a day +[\u2581-\u2588]{8}/);
    }
  });

  it('a failed predict by hand is not a failed poll', () => {
    const both = aggregate(
      [run(DAY, { exitCode: 5 }), { ...run(DAY), summary: { ...run(DAY).summary!, command: 'predict', exitCode: 2 } }],
      NOW - 7 * DAY,
      NOW,
    );
    expect(printed(renderStats(both, { width: undefined }))).toContain(
      '1 polls (1 ended with an error), 1 predicts by hand (1 ended with an error)',
    );
  });

  it('says when the counters will come when there are none yet', () => {
    const text = printed(renderStats(aggregate([run(DAY)], NOW - 7 * DAY, NOW), { width: undefined }));
    expect(text).toContain('no snapshot yet');
  });

  it('sparkline scales from the lowest value to the highest; all equal is a flat line', () => {
    expect(sparkline([0, 7, 14])).toBe('\u2581\u2585\u2588');
    expect(sparkline([0, 0])).toBe('\u2581\u2581');
    expect(sparkline([5, 5])).toBe('\u2584\u2584');
    expect(sparkline([])).toBe('');
  });
});

describe('parseRecord', () => {
  it('takes records, keeps what a later version adds, and refuses what would mislead', () => {
    const good = { ts: at(0), kind: 'post', threadId: 't', conviction: 1, later: true };
    expect(parseRecord(good)).toEqual(good);
    for (const bad of [
      null,
      [],
      { kind: 'post' },
      { ts: 'yesterday', kind: 'post' },
      { ts: at(0), kind: 'deleted' },
      { ts: at(0), kind: 'post', conviction: '1' },
      { ts: at(0), kind: 'run', summary: { command: 'poll', posted: 1 } },
      {
        ts: at(0),
        kind: 'run',
        summary: {
          command: 'poll',
          posted: 0,
          skipped: 0,
          failed: 0,
          exitCode: 0,
          elapsedMs: 1,
          counters: { honey: 'a' },
        },
      },
    ]) {
      expect(parseRecord(bad), JSON.stringify(bad)).toBeUndefined();
    }
  });
});
