import type { Output } from '../output/output.js';
import { oneLine } from '../output/sanitize.js';
import type { Cursor } from '../domain/cursor.js';
import type { SkipKind } from '../domain/skip.js';
import { type Outcome, reasonOf } from '../posting/outcome.js';

/** What a poll did, for a person or as `poll --json`: its three lists are the tallies of src/domain/fate.ts. */
export interface PollReport {
  posted: Array<{ threadId: string; conviction: number; text: string; predictionId: string | null }>;
  /** `skipKind`: src/domain/skip.ts. */
  skipped: Array<{ threadId: string; reason: string; skipKind: SkipKind }>;
  failed: Array<{ threadId: string; error: string }>;
  cursor: Cursor | null;
}

export function emptyReport(cursor: Cursor | null): PollReport {
  return { posted: [], skipped: [], failed: [], cursor };
}

/** A thread's outcome, in the list its fate is counted in. */
export function addOutcome(report: PollReport, threadId: string, outcome: Outcome): void {
  if (outcome.kind === 'posted') {
    const { conviction, text, predictionId } = outcome;
    report.posted.push({ threadId, conviction, text, predictionId });
  } else if (outcome.kind === 'skipped')
    report.skipped.push({ threadId, reason: outcome.reason, skipKind: outcome.skipKind });
  else report.failed.push({ threadId, error: reasonOf(outcome) });
}

/**
 * On a terminal, or for a dry run (whose decisions are its result): a line per thread. Under cron:
 * nothing on success (cron mails whatever is printed), one summary line with --verbose, and every
 * failure on stderr. With --json: the document of docs/cli.md. A `note` (another run busy, a rate-limit
 * pause) takes the summary's place.
 */
export function renderPoll(
  report: PollReport,
  output: Output,
  run: { dryRun: boolean; elapsedMs: number; note?: string },
): void {
  const verb = run.dryRun ? 'would post' : 'posted';
  const summary =
    run.note ??
    `${report.posted.length} ${verb}, ${report.skipped.length} skipped, ${report.failed.length} failed in ${(run.elapsedMs / 1000).toFixed(1)} s${run.dryRun ? ' (dry run: nothing sent, state unchanged)' : ''}`;
  if (output.json) {
    output.result([], report);
  } else if (output.stdoutIsTTY || run.dryRun) {
    const lines = [
      ...report.posted.map(
        (p) => `${verb.padEnd(10)} ${signed(p.conviction).padStart(6)}%  ${p.threadId}  ${oneLine(p.text, 120)}`,
      ),
      ...report.skipped.map(
        (s) => `${'skipped'.padEnd(10)} ${''.padStart(7)}  ${s.threadId}  ${oneLine(s.reason, 120)}`,
      ),
      !run.note && report.posted.length + report.skipped.length + report.failed.length === 0 ? 'Nothing new.' : summary,
    ];
    output.result(lines, report);
  } else {
    output.detail(`agent poll: ${summary}`);
  }
  // One line per distinct problem: a broken analyzer on 50 threads is one line in cron's mail, not 50.
  const byError = new Map<string, string[]>();
  for (const f of report.failed) byError.set(f.error, [...(byError.get(f.error) ?? []), f.threadId]);
  for (const [error, ids] of byError) {
    const who =
      ids.length === 1
        ? `thread ${ids[0]}`
        : `${ids.length} threads (${ids.slice(0, 3).join(', ')}${ids.length > 3 ? ', …' : ''})`;
    output.error(`agent: ${who}: ${oneLine(error, 300)}`);
  }
}

function signed(n: number): string {
  return `${n > 0 ? '+' : ''}${n.toFixed(1)}`;
}
