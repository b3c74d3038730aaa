// The record in `agent stats`: every number defined once in record-stats.ts, checked on posts made up here.
import { describe, expect, it } from 'vitest';
import type { HistoryEntry } from '../../src/history/entry.js';
import { type OutcomeRecord, outcomeKey } from '../../src/record/outcomes.js';
import { fitLines, type Line } from '../../src/output/wrap.js';
import { renderRecord } from '../../src/record/record-render.js';
import { recordStats } from '../../src/record/record-stats.js';
import { wilson } from '../../src/record/wilson.js';

const DAY = 86_400_000;
const NOW = Date.parse('2026-11-25T12:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();

function world(
  posts: Array<[id: string, cell: string, conviction: number, move: number | null | undefined, extra?: object]>,
) {
  const records: HistoryEntry[] = [];
  const outcomes = new Map<string, OutcomeRecord>();
  posts.forEach(([threadId, cell, conviction, move, extra], i) => {
    const ts = iso(NOW - DAY + i * 60_000);
    records.push({ ts, kind: 'post', threadId, cell, conviction, ...extra });
    if (move === undefined) return;
    outcomes.set(outcomeKey('post', threadId), {
      resolvedAt: ts,
      decidedAt: ts,
      threadId,
      kind: 'post',
      cell,
      conviction,
      move,
      right: move === null || Math.abs(move) < 0.05 ? null : Math.sign(move) === Math.sign(conviction),
      ...(move === null ? { unresolvable: 'no price' } : {}),
    });
  });
  return { records, outcomes };
}

describe('recordStats', () => {
  it('counts right, wrong and flat; the hit rate leaves flat moves out; mae and the mean move over all resolved', () => {
    const { records, outcomes } = world([
      ['a', 'bitcoin', 1, 0.5],
      ['b', 'bitcoin', -1, 0.5],
      ['c', 'ethereum', 2, 1],
      ['d', 'ethereum', 0.5, 0.01],
      ['e', 'ethereum', 0.5, undefined],
      ['f', 'solana', 0.5, null],
    ]);
    const r = recordStats(records, outcomes, NOW - 7 * DAY, NOW);
    expect(r).toMatchObject({ resolved: 4, right: 2, wrong: 1, flat: 1, pending: 1, unresolvable: 1 });
    expect(r.hitRate).toBe(0.667);
    // |1-0.5| + |-1-0.5| + |2-1| + |0.5-0.01| = 3.49, over 4
    expect(r.mae).toBe(0.87);
    expect(r.meanAbsMove).toBeCloseTo(0.5025, 2);
    expect(r.byCell.bitcoin).toMatchObject({ resolved: 2, right: 1, wrong: 1, hitRate: 0.5 });
    expect(r.byCell.ethereum).toMatchObject({ resolved: 2, right: 1, flat: 1, hitRate: 1 });
    expect(Object.keys(r.byCell)).toEqual(['bitcoin', 'ethereum']);
  });

  it('gives the 95% Wilson interval: known values, and honest near 0, 1 and for a few posts', () => {
    expect(wilson(0, 0)).toBeNull();
    const half = wilson(50, 100)!;
    expect(half.low).toBeCloseTo(0.4038, 3);
    expect(half.high).toBeCloseTo(0.5962, 3);
    const all = wilson(5, 5)!;
    expect(all.high).toBe(1);
    expect(all.low).toBeCloseTo(0.5655, 3);
    const { records, outcomes } = world([['a', 'bitcoin', 1, 1]]);
    const r = recordStats(records, outcomes, 0, NOW);
    expect([r.hitRate, r.hitRateLow, r.hitRateHigh]).toEqual([1, 0.207, 1]);
  });

  it('calibrates by size: mean size predicted against mean move realized in the predicted direction', () => {
    const { records, outcomes } = world([
      ['a', 'x', 0.3, 0.1],
      ['b', 'x', -0.4, 0.2],
      ['c', 'x', 1.2, 2],
      ['d', 'x', -1.4, -1],
      ['e', 'x', 6, -1],
    ]);
    expect(recordStats(records, outcomes, 0, NOW).calibration).toEqual([
      { from: 0, to: 0.5, posts: 2, meanPredicted: 0.35, meanRealized: -0.05 },
      { from: 1, to: 1.5, posts: 2, meanPredicted: 1.3, meanRealized: 1.5 },
      { from: 5, to: null, posts: 1, meanPredicted: 6, meanRealized: -1 },
    ]);
  });

  it('names the best and worst calls by the move in their predicted direction', () => {
    const { records, outcomes } = world([
      ['a', 'x', 1, 0.5],
      ['b', 'x', -1, -3],
      ['c', 'x', 1, -2],
      ['d', 'x', -0.5, 0.1],
      ['e', 'x', 2, 1],
    ]);
    const r = recordStats(records, outcomes, 0, NOW);
    expect(r.best.map((c) => c.threadId)).toEqual(['b', 'e', 'a']);
    // Five calls: the three best, and the worst of the two left; no call is both.
    expect(r.worst.map((c) => c.threadId)).toEqual(['c', 'd']);
    expect(r.best[0]).toMatchObject({ cell: 'x', conviction: -1, move: -3, decidedAt: expect.any(String) });
  });

  it('never names a call both best and worst', () => {
    for (let n = 0; n <= 7; n += 1) {
      const { records, outcomes } = world(
        Array.from({ length: n }, (_, i): [string, string, number, number] => [`t${i}`, 'x', 1, i - 3]),
      );
      const r = recordStats(records, outcomes, 0, NOW);
      const best = r.best.map((c) => c.threadId);
      const worst = r.worst.map((c) => c.threadId);
      expect(best.filter((id) => worst.includes(id))).toEqual([]);
      expect(best.length + worst.length).toBe(Math.min(n, 6));
      expect(best.length).toBe(Math.min(3, Math.ceil(n / 2)));
    }
  });

  it('sums up the skips, by analyzer too, and keeps only the period', () => {
    const { records, outcomes } = world([
      ['a', 'x', 1, 0.5, { analyzer: 'llm' }],
      ['b', 'x', 1, 0.5, { analyzer: 'command', fallback: true }],
      ['c', 'x', 1, 0.5],
    ]);
    records.push({ ts: iso(NOW - DAY), kind: 'skip', threadId: 's', cell: 'x', reason: 'weak' });
    records.push({ ts: iso(NOW - 30 * DAY), kind: 'post', threadId: 'old', cell: 'x', conviction: 1 });
    outcomes.set(outcomeKey('skip', 's'), {
      ...outcomes.get(outcomeKey('post', 'a'))!,
      kind: 'skip',
      threadId: 's',
      move: -1.5,
    });
    const r = recordStats(records, outcomes, NOW - 7 * DAY, NOW);
    expect(r.skipped).toEqual({ resolved: 1, meanAbsMove: 1.5 });
    expect(Object.keys(r.byAnalyzer)).toEqual(['command (fallback)', 'llm', 'unknown']);
    expect(r.pending).toBe(0);
  });

  it('keeps a cell named __proto__ as a cell', () => {
    const { records, outcomes } = world([['a', '__proto__', 1, 1]]);
    const r = recordStats(records, outcomes, 0, NOW);
    expect(Object.keys(r.byCell)).toEqual(['__proto__']);
    expect(Object.getOwnPropertyDescriptor(JSON.parse(JSON.stringify(r)).byCell, '__proto__')?.value.resolved).toBe(1);
  });
});

describe('renderRecord', () => {
  const { records, outcomes } = world([
    ['a', 'bitcoin', 1, 0.5],
    ['b', 'bitcoin', -1, 0.5],
    ['c', 'ethereum', 2, 1.5],
    ['p', 'ethereum', 1, undefined],
  ]);
  const r = recordStats(records, outcomes, 0, NOW);
  const text = (lines: Line[]) =>
    lines
      .map((line) => (typeof line === 'string' ? line : line.map((p) => (typeof p === 'string' ? p : p.text)).join('')))
      .join('\n');

  it('off a terminal: plain aligned rows, every number a script needs, nothing drawn or painted', () => {
    const lines = renderRecord(r, { width: undefined });
    expect(lines.every((line) => typeof line === 'string')).toBe(true);
    const shown = text(lines);
    expect(shown).toContain('3 resolved (1 pending): 2 right, 1 wrong, 0 flat');
    expect(shown).toMatch(/hit rate 66\.7% \(95% interval 20\.8%-93\.9%\)/);
    expect(shown).toMatch(/^ {2}1\.0-1\.5% +2 +\+1\.00% +0\.00%$/m);
    expect(shown).toMatch(/^bitcoin +2 +50\.0% +9\.5%-90\.5% +1\.00$/m);
    expect(shown).not.toMatch(/\u001b|\u2588/);
  });

  it('at a terminal: the hit rate as a gauge and calibration as bars, the marks painted for the output to colour', () => {
    const lines = renderRecord(r, { width: 100 });
    const shown = text(lines);
    expect(shown).toMatch(/0% \u251c[\u2500\u2501\u253c\u25cf]+\u2524 100%/);
    expect(shown).toMatch(/^ {2}2\.0-3\.0% +1 +\u2502\u2588+ *\u25c6/m);
    const painted = lines.flatMap((line) =>
      typeof line === 'string' ? [] : line.filter((p) => typeof p !== 'string'),
    );
    expect(new Set(painted.map((p) => (typeof p === 'string' ? '' : p.paint)))).toEqual(new Set(['cyan', 'yellow']));
    expect(shown).not.toContain('\u001b');
    // Drawn rows fit an 80-column terminal; the rest are plain and wrap.
    for (const line of lines)
      if (typeof line !== 'string') expect(Array.from(text([line])).length).toBeLessThanOrEqual(80);
  });

  it.each([40, 60, 72])(
    'at a %i-column terminal every line fits, wrapped at spaces: no number cut by its edge',
    (width) => {
      const lines = fitLines(renderRecord(r, { width }), width);
      for (const line of lines) expect(Array.from(text([line])).length, text([line])).toBeLessThanOrEqual(width);
      // What would not fit drawn is given as the plain rows, each number whole.
      expect(text(lines)).toContain(' 9.5%-90.5%');
    },
  );

  it('says when nothing is resolved yet, and why', () => {
    const empty = recordStats(records, new Map(), 0, NOW);
    expect(text(renderRecord(empty, { width: 100 }))).toContain(
      'nothing resolved yet (4 pending): a post is resolved once the polls have read',
    );
  });
});
