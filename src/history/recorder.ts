import type { DecidedBy } from '../analysis/types.js';
import type { Outcome } from '../posting/outcome.js';
import type { HistoryRecord, RunSummary } from './record.js';

/**
 * What one run did: poll and predict call it where a thread's outcome is decided. The records wait here
 * until `take` (poll takes them with each page it saves, so a long run holds no more than a page of them,
 * and a killed one has recorded what it saved); `finish` gives the rest and the run's summary.
 */
export class RunRecorder {
  private records: HistoryRecord[] = [];
  private readonly counts = { post: 0, skip: 0, fail: 0 };
  private locked = 0;
  counters: RunSummary['counters'];

  constructor(
    private readonly command: RunSummary['command'],
    private readonly now: () => number,
  ) {}

  /** What became of a thread, as poll's ledger or predict decided it. */
  outcome(thread: { id: string; cell: string }, outcome: Outcome): void {
    if (outcome.kind === 'posted') this.post(thread.id, thread.cell, outcome.conviction, outcome.text, outcome.by);
    else if (outcome.kind === 'skipped') this.skip(thread.id, thread.cell, outcome.reason, outcome.by);
    else this.fail(thread.id, thread.cell, outcome.kind === 'stop' ? outcome.error.message : outcome.error);
  }

  post(threadId: string, cell: string, conviction: number, text: string, by?: DecidedBy): void {
    this.counts.post += 1;
    this.records.push({ ts: this.ts(), kind: 'post', threadId, cell, conviction, text, ...decided(by) });
  }

  skip(threadId: string, cell: string | undefined, reason: string, by?: DecidedBy): void {
    // A run after a long gap meets thousands of locked threads: one count, not a line each.
    if (reason === 'locked') this.locked += 1;
    else {
      this.counts.skip += 1;
      this.records.push({ ts: this.ts(), kind: 'skip', threadId, ...(cell ? { cell } : {}), reason, ...decided(by) });
    }
  }

  fail(threadId: string, cell: string | undefined, error: string): void {
    this.counts.fail += 1;
    this.records.push({ ts: this.ts(), kind: 'fail', threadId, ...(cell ? { cell } : {}), reason: error });
  }

  /** The records kept since the last take, which are then forgotten. */
  take(): HistoryRecord[] {
    const taken = this.records;
    this.records = [];
    return taken;
  }

  /** The records not taken yet and the run's summary, ready to append. */
  finish(started: number, exitCode: number, error?: string): HistoryRecord[] {
    const summary: RunSummary = {
      command: this.command,
      posted: this.counts.post,
      skipped: this.counts.skip + this.locked,
      failed: this.counts.fail,
      ...(this.locked ? { locked: this.locked } : {}),
      exitCode,
      elapsedMs: Math.max(0, this.now() - started),
      ...(error ? { error } : {}),
      ...(this.counters ? { counters: this.counters } : {}),
    };
    return [...this.take(), { ts: this.ts(), kind: 'run', summary }];
  }

  private ts(): string {
    return new Date(this.now()).toISOString();
  }
}

function decided(by: DecidedBy | undefined): { analyzer?: DecidedBy['analyzer']; fallback?: true } {
  return by ? { analyzer: by.analyzer, ...(by.fallback ? { fallback: true } : {}) } : {};
}
