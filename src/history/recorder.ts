import type { Outcome } from '../posting/outcome.js';
import type { HistoryRecord, RunSummary } from './record.js';

/**
 * What one run did, collected as it goes and appended once at its end (one write per record): poll and
 * predict call it where a thread's outcome is decided.
 */
export class RunRecorder {
  private readonly records: HistoryRecord[] = [];
  private locked = 0;
  counters: RunSummary['counters'];

  constructor(
    private readonly command: RunSummary['command'],
    private readonly now: () => number,
  ) {}

  /** What became of a thread, as poll's ledger or predict decided it. */
  outcome(thread: { id: string; cell: string }, outcome: Outcome): void {
    if (outcome.kind === 'posted') this.post(thread.id, thread.cell, outcome.conviction, outcome.text);
    else if (outcome.kind === 'skipped') this.skip(thread.id, thread.cell, outcome.reason);
    else this.fail(thread.id, thread.cell, outcome.kind === 'stop' ? outcome.error.message : outcome.error);
  }

  post(threadId: string, cell: string, conviction: number, text: string): void {
    this.records.push({ ts: this.ts(), kind: 'post', threadId, cell, conviction, text });
  }

  skip(threadId: string, cell: string | undefined, reason: string): void {
    // A run after a long gap meets thousands of locked threads: one count, not a line each.
    if (reason === 'locked') this.locked += 1;
    else this.records.push({ ts: this.ts(), kind: 'skip', threadId, ...(cell ? { cell } : {}), reason });
  }

  fail(threadId: string, cell: string | undefined, error: string): void {
    this.records.push({ ts: this.ts(), kind: 'fail', threadId, ...(cell ? { cell } : {}), reason: error });
  }

  /** The records and the run's summary, ready to append. */
  finish(started: number, exitCode: number, error?: string): HistoryRecord[] {
    const count = (kind: HistoryRecord['kind']) => this.records.filter((r) => r.kind === kind).length;
    const summary: RunSummary = {
      command: this.command,
      posted: count('post'),
      skipped: count('skip') + this.locked,
      failed: count('fail'),
      ...(this.locked ? { locked: this.locked } : {}),
      exitCode,
      elapsedMs: Math.max(0, this.now() - started),
      ...(error ? { error } : {}),
      ...(this.counters ? { counters: this.counters } : {}),
    };
    return [...this.records, { ts: this.ts(), kind: 'run', summary }];
  }

  private ts(): string {
    return new Date(this.now()).toISOString();
  }
}
