import type { HistoryEntry } from '../history/entry.js';
import { type OutcomeRecord, outcomeKey } from './outcomes.js';
import type { Call, RecordMetrics, RecordStats } from './record-types.js';
import { wilson } from './wilson.js';

export type { CalibrationRow, Call, RecordMetrics, RecordStats } from './record-types.js';

// `agent stats`' record (docs/record.md#the-record-was-it-right): what the posts of the period did, defined once here.
//
// - resolved: posts with a realized move; right / wrong: its sign equal to / against the conviction's;
//   flat: |move| under 0.05 %, neither (resolve.ts).
// - hitRate = right / (right + wrong), with its 95% Wilson interval (hitRateLow, hitRateHigh, wilson.ts);
//   null without a directional outcome.
// - mae = mean |conviction − move| in percentage points; meanAbsMove = mean |move|.
// - calibration: posts by |conviction|, the mean size predicted against the mean move realized in the
//   predicted direction (move × sign of the conviction): a calibrated agent's two columns agree.
// - best / worst: the calls with the largest and smallest move in their predicted direction, three of
//   each at most, none in both (with five calls: three best, two worst).
// - skipped: what the skipped threads' cells did, for comparison with the posted ones.
// Rates are rounded to 3 decimals, sizes and moves to 3, mae to 2.

/** Bucket edges of the calibration table, in % of |conviction|. */
export const CALIBRATION_EDGES = [0, 0.5, 1, 1.5, 2, 3, 5];
const CALLS_SHOWN = 3;

interface Tally {
  right: number;
  wrong: number;
  flat: number;
  absError: number;
  absMove: number;
}

const emptyTally = (): Tally => ({ right: 0, wrong: 0, flat: 0, absError: 0, absMove: 0 });

/** The record of the posts and skips in the history from `from` to `to` (epoch ms), from their outcomes. */
export function recordStats(
  records: readonly HistoryEntry[],
  outcomes: ReadonlyMap<string, OutcomeRecord>,
  from: number,
  to: number,
): RecordStats {
  const overall = emptyTally();
  const cells = new Map<string, Tally>();
  const analyzers = new Map<string, Tally>();
  const buckets = CALIBRATION_EDGES.map(() => ({ posts: 0, predicted: 0, realized: 0 }));
  const calls: Call[] = [];
  let pending = 0;
  let unresolvable = 0;
  let skipsResolved = 0;
  let skipsAbsMove = 0;
  for (const record of records) {
    if ((record.kind !== 'post' && record.kind !== 'skip') || !record.threadId) continue;
    const at = Date.parse(record.ts);
    if (!(at >= from && at <= to)) continue;
    const outcome = outcomes.get(outcomeKey(record.kind, record.threadId));
    if (record.kind === 'skip') {
      if (outcome?.move == null) continue;
      skipsResolved += 1;
      skipsAbsMove += Math.abs(outcome.move);
      continue;
    }
    if (!outcome) pending += 1;
    const conviction = record.conviction ?? outcome?.conviction;
    if (!outcome || conviction === undefined) continue;
    if (outcome.move === null) {
      unresolvable += 1;
      continue;
    }
    const { move } = outcome;
    const analyzer = analyzerOf(record, outcome);
    for (const tally of [overall, entry(cells, outcome.cell), entry(analyzers, analyzer)])
      count(tally, conviction, move, outcome.right);
    const size = Math.abs(conviction);
    const bucket = buckets[bucketOf(size)];
    if (bucket) {
      bucket.posts += 1;
      bucket.predicted += size;
      bucket.realized += move * Math.sign(conviction);
    }
    calls.push({ threadId: record.threadId, cell: outcome.cell, conviction, move, decidedAt: record.ts });
  }
  const inDirection = (call: Call) => call.move * Math.sign(call.conviction);
  const ranked = [...calls].sort((a, b) => inDirection(b) - inDirection(a) || (a.threadId < b.threadId ? -1 : 1));
  return {
    ...metricsOf(overall),
    pending,
    unresolvable,
    byCell: byName(cells),
    byAnalyzer: byName(analyzers),
    calibration: buckets.flatMap((b, i) =>
      b.posts === 0
        ? []
        : [
            {
              from: CALIBRATION_EDGES[i] ?? 0,
              to: CALIBRATION_EDGES[i + 1] ?? null,
              posts: b.posts,
              meanPredicted: round(b.predicted / b.posts, 3),
              meanRealized: round(b.realized / b.posts, 3),
            },
          ],
    ),
    ...bestAndWorst(ranked),
    skipped: { resolved: skipsResolved, meanAbsMove: skipsResolved ? round(skipsAbsMove / skipsResolved, 3) : null },
  };
}

/** From the calls ranked best first: at most three each, and with few calls no call in both. */
function bestAndWorst(ranked: readonly Call[]): { best: Call[]; worst: Call[] } {
  const best = ranked.slice(0, Math.min(CALLS_SHOWN, Math.ceil(ranked.length / 2)));
  return { best, worst: ranked.slice(best.length).slice(-CALLS_SHOWN).reverse() };
}

function metricsOf(t: Tally): RecordMetrics {
  const resolved = t.right + t.wrong + t.flat;
  const directional = t.right + t.wrong;
  const interval = wilson(t.right, directional);
  return {
    resolved,
    right: t.right,
    wrong: t.wrong,
    flat: t.flat,
    hitRate: directional ? round(t.right / directional, 3) : null,
    hitRateLow: interval ? round(interval.low, 3) : null,
    hitRateHigh: interval ? round(interval.high, 3) : null,
    mae: resolved ? round(t.absError / resolved, 2) : null,
    meanAbsMove: resolved ? round(t.absMove / resolved, 3) : null,
  };
}

function count(tally: Tally, conviction: number, move: number, right: boolean | null): void {
  if (right === null) tally.flat += 1;
  else if (right) tally.right += 1;
  else tally.wrong += 1;
  tally.absError += Math.abs(conviction - move);
  tally.absMove += Math.abs(move);
}

/** Which analyzer decided: the history's word (or the outcome's copy of it); "unknown" before it was kept. */
function analyzerOf(record: HistoryEntry, outcome: OutcomeRecord): string {
  const extra = record as unknown as Record<string, unknown>;
  const name = typeof extra.analyzer === 'string' ? extra.analyzer : (outcome.analyzer ?? 'unknown');
  const fallback = extra.fallback === true || outcome.fallback === true;
  return fallback ? `${name} (fallback)` : name;
}

function bucketOf(size: number): number {
  let i = CALIBRATION_EDGES.length - 1;
  while (i > 0 && size < (CALIBRATION_EDGES[i] ?? 0)) i -= 1;
  return i;
}

function entry(map: Map<string, Tally>, key: string): Tally {
  let tally = map.get(key);
  if (!tally) {
    tally = emptyTally();
    map.set(key, tally);
  }
  return tally;
}

// fromEntries makes own properties of any name: a cell called __proto__ stays a cell.
function byName(map: Map<string, Tally>): Record<string, RecordMetrics> {
  return Object.fromEntries(
    [...map].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([name, tally]) => [name, metricsOf(tally)]),
  );
}

function round(value: number, decimals: number): number {
  const factor = 10 ** decimals;
  return Math.round(value * factor) / factor || 0;
}
