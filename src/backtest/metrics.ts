// The backtest's numbers, defined once (docs/backtest.md repeats these definitions):
//
// - threads: replayed threads; posted + skipped + failed = threads.
// - failed: the analyzer could not answer (an AnalyzerError: timeout, crash, garbage). Nothing is posted,
//   as in a real poll, and the thread still counts in `threads`, so a flaky analyzer shows as low coverage.
// - coverage = posted / threads.
// - right: posts whose sign equals the sign of the actual move. A move of exactly 0 (after rounding to
//   0.001 %) has no sign, so no post on it is right: the same as the sandbox, which awards nothing there.
// - accuracy = right / posted; null when nothing was posted.
// - mae = mean of |conviction − actual move| over posts, in percentage points; null when nothing was posted.
// - honey, wax: sums of the sandbox's scoring rule (src/sandbox/scoring.ts) over posts, with the client's σ
//   for the cell and age 0, i.e. each post as if made the moment its thread appeared: the best case,
//   since a real poll finds a thread minutes later and earns less honey (wax does not depend on age).
//
// Rates are rounded to 3 decimals and mae to 2, once, at the end.

export interface ThreadResult {
  threadId: string;
  cell: string;
  action: 'post' | 'skip' | 'failed';
  /** Posts only. */
  conviction?: number;
  /** (price_on_eval / price_on_fetch − 1) × 100, rounded to 3 decimals. */
  actualMovePct: number;
  /** Posts only: the sign of the conviction equals the sign of the move. */
  right?: boolean;
  honey: number;
  wax: number;
  /** Why it was skipped, or why the analyzer failed. */
  reason?: string;
}

export interface CellMetrics {
  threads: number;
  posted: number;
  skipped: number;
  failed: number;
  right: number;
  coverage: number;
  accuracy: number | null;
  mae: number | null;
  honey: number;
  wax: number;
}

export interface Tally {
  threads: number;
  posted: number;
  skipped: number;
  failed: number;
  right: number;
  absErrorSum: number;
  honey: number;
  wax: number;
}

export function emptyTally(): Tally {
  return { threads: 0, posted: 0, skipped: 0, failed: 0, right: 0, absErrorSum: 0, honey: 0, wax: 0 };
}

export function tally(into: Tally, result: ThreadResult): void {
  into.threads += 1;
  if (result.action === 'skip') into.skipped += 1;
  else if (result.action === 'failed') into.failed += 1;
  else {
    into.posted += 1;
    if (result.right) into.right += 1;
    into.absErrorSum += Math.abs((result.conviction ?? 0) - result.actualMovePct);
    into.honey += result.honey;
    into.wax += result.wax;
  }
}

export function metricsOf(t: Tally): CellMetrics {
  return {
    threads: t.threads,
    posted: t.posted,
    skipped: t.skipped,
    failed: t.failed,
    right: t.right,
    coverage: t.threads === 0 ? 0 : round(t.posted / t.threads, 3),
    accuracy: t.posted === 0 ? null : round(t.right / t.posted, 3),
    mae: t.posted === 0 ? null : round(t.absErrorSum / t.posted, 2),
    honey: t.honey,
    wax: t.wax,
  };
}

function round(value: number, decimals: number): number {
  const factor = 10 ** decimals;
  return Math.round(value * factor) / factor;
}
