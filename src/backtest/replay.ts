import { analyzeThread } from '../analysis/index.js';
import { UnreachableError } from '../analysis/llm/retry.js';
import { sigmaOf } from '../analysis/profile-numbers.js';
import type { Analyzer, Decision } from '../analysis/types.js';
import type { Profile } from '../domain/profile.js';
import { cellOf, type Thread, type TypicalMove } from '../domain/thread.js';
import { AnalyzerError } from '../errors.js';
import { oneLine } from '../output/sanitize.js';
import { scorePrediction } from '../sandbox/scoring.js';
import type { BacktestThread } from './file.js';
import { emptyTally, metricsOf, tally, type CellMetrics, type ThreadResult } from './metrics.js';

export type { CellMetrics, ThreadResult } from './metrics.js';

/** Threads in a row that could not reach the analyzer before the run stops: a few, not a whole file. */
const UNREACHABLE_LIMIT = 3;

export interface BacktestReport {
  overall: CellMetrics;
  /** By cell (project_id without `c/`, lower case), in cell-name order. */
  cells: Record<string, CellMetrics>;
  /** One entry per thread, in the order they were replayed. */
  threads: ThreadResult[];
}

/**
 * Replays resolved threads through an analyzer and the policy, as if each had just been published, and
 * scores every post against what the price then did. Threads are replayed oldest first (timestamp, then
 * id), so an analyzer that keeps memory between calls never sees a thread before an earlier one.
 */
export async function runBacktestOn(
  threads: readonly BacktestThread[],
  analyzer: Analyzer,
  profile: Profile,
  onProgress?: (done: number, total: number) => void,
  /** Threads read at once, started in order: a slow analyzer's, as in a poll. */
  concurrency = 1,
  /** The typical move each thread's post is sized by, as known at the thread's time; the written one otherwise. */
  typicalMoveAt?: (record: BacktestThread) => TypicalMove | undefined,
): Promise<BacktestReport> {
  const ordered = [...threads].sort(chronological);
  const results: ThreadResult[] = [];
  let unreachable: AnalyzerError[] = [];
  for (let i = 0; i < ordered.length; i += concurrency) {
    const chunk = await Promise.all(
      ordered.slice(i, i + concurrency).map((record) => replay(record, analyzer, profile, typicalMoveAt?.(record))),
    );
    for (const { result, error } of chunk) {
      results.push(result);
      unreachable = error && isUnreachable(error) ? [...unreachable, error] : [];
      // A server that is not there fails every thread the same way, a second or more each: say so once.
      const [first] = unreachable;
      if (first && unreachable.length >= UNREACHABLE_LIMIT) {
        throw new AnalyzerError(
          `stopped after ${unreachable.length} threads in a row could not reach the analyzer: ${first.message}`,
          {
            hint: first.hint ?? 'is the server running, and is the base URL right?',
          },
        );
      }
    }
    onProgress?.(results.length, ordered.length);
  }
  const overall = emptyTally();
  const byCell = new Map<string, ReturnType<typeof emptyTally>>();
  for (const result of results) {
    tally(overall, result);
    let cell = byCell.get(result.cell);
    if (!cell) {
      cell = emptyTally();
      byCell.set(result.cell, cell);
    }
    tally(cell, result);
  }
  const cells: Record<string, CellMetrics> = {};
  for (const [name, counts] of [...byCell].sort(([a], [b]) => byName(a, b))) cells[name] = metricsOf(counts);
  return { overall: metricsOf(overall), cells, threads: results };
}

/**
 * What an analyzer is shown: the thread as it was at its own time, built field by field. The record is
 * never spread, so `price_on_eval` and any field of the file we do not know cannot reach an analyzer.
 * `locked` is false because that is how the thread looked when a prediction was possible.
 */
export function threadAtItsTime(record: BacktestThread): Thread {
  return {
    id: record.id,
    cell: cellOf(record.project_id),
    projectId: record.project_id,
    text: record.text,
    timestamp: record.timestamp,
    locked: false,
    priceOnFetch: record.price_on_fetch,
    citations: record.citations.map((c) => ({
      ...(c.url !== undefined ? { url: c.url } : {}),
      ...(c.title !== undefined ? { title: c.title } : {}),
    })),
  };
}

/** The move from price_on_fetch to price_on_eval in %, rounded to 3 decimals as the sandbox rounds it. */
export function actualMovePct(record: Pick<BacktestThread, 'price_on_fetch' | 'price_on_eval'>): number {
  return Math.round((record.price_on_eval / record.price_on_fetch - 1) * 100 * 1000) / 1000;
}

async function replay(
  record: BacktestThread,
  analyzer: Analyzer,
  profile: Profile,
  typicalMove: TypicalMove | undefined,
): Promise<{ result: ThreadResult; error?: AnalyzerError }> {
  const thread = typicalMove ? { ...threadAtItsTime(record), typicalMove } : threadAtItsTime(record);
  const move = actualMovePct(record);
  const head = { threadId: record.id, cell: thread.cell };
  let decision: Decision;
  try {
    ({ decision } = await analyzeThread(analyzer, thread, profile));
  } catch (error) {
    // Only an analyzer that could not answer is a failed thread; anything else is a bug and stops the run.
    if (!(error instanceof AnalyzerError)) throw error;
    return {
      result: { ...head, action: 'failed', actualMovePct: move, honey: 0, wax: 0, reason: oneLine(error.message) },
      error,
    };
  }
  if (decision.action === 'skip')
    return { result: { ...head, action: 'skip', actualMovePct: move, honey: 0, wax: 0, reason: decision.reason } };
  const { conviction } = decision;
  // Scored as if posted the moment the thread appeared (age 0): the best case the rule allows.
  const award = scorePrediction({ conviction, actualMovePct: move, sigma: sigmaOf(thread.cell), ageMs: 0 });
  return {
    result: {
      ...head,
      action: 'post',
      conviction,
      actualMovePct: move,
      right: conviction * move > 0,
      honey: award.honey,
      wax: award.wax,
    },
  };
}

function isUnreachable(error: AnalyzerError): boolean {
  return error instanceof UnreachableError || error.cause instanceof UnreachableError;
}

function chronological(a: BacktestThread, b: BacktestThread): number {
  return a.timestampMs - b.timestampMs || byName(a.id, b.id);
}

function byName(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
