import type { Output } from '../output/output.js';
import { oneLine } from '../output/sanitize.js';
import type { Cursor } from '../service/api.js';

export interface PollReport {
  posted: Array<{ threadId: string; conviction: number; text: string; predictionId: string | null }>;
  skipped: Array<{ threadId: string; reason: string }>;
  failed: Array<{ threadId: string; error: string }>;
  cursor: Cursor | null;
}

/**
 * On a terminal: a line per thread. Under cron: nothing on success (cron mails whatever is printed),
 * one summary line with --verbose, and every failure on stderr. With --json: the document of cli.md.
 */
export function renderPoll(report: PollReport, output: Output, run: { dryRun: boolean; elapsedMs: number }): void {
  const verb = run.dryRun ? 'would post' : 'posted';
  const summary = `${report.posted.length} ${verb}, ${report.skipped.length} skipped, ${report.failed.length} failed in ${(run.elapsedMs / 1000).toFixed(1)} s${run.dryRun ? ' (dry run: nothing sent, state unchanged)' : ''}`;
  if (output.json) {
    output.result([], report);
  } else if (output.stdoutIsTTY) {
    const lines = [
      ...report.posted.map((p) => `${verb.padEnd(10)} ${signed(p.conviction).padStart(6)}%  ${p.threadId}  ${oneLine(p.text, 120)}`),
      ...report.skipped.map((s) => `${'skipped'.padEnd(10)} ${''.padStart(7)}  ${s.threadId}  ${oneLine(s.reason, 120)}`),
      report.posted.length + report.skipped.length + report.failed.length === 0 ? 'Nothing new.' : summary,
    ];
    output.result(lines, report);
  } else {
    output.detail(`agent poll: ${summary}`);
  }
  for (const f of report.failed) output.error(`agent: thread ${f.threadId}: ${oneLine(f.error, 300)}`);
}

function signed(n: number): string {
  return `${n > 0 ? '+' : ''}${n.toFixed(1)}`;
}
