import type { DecidedBy } from '../analysis/types.js';
import { type Fate, HISTORY_KIND, TALLY, type Tally } from '../domain/fate.js';
import type { Skip } from '../domain/skip.js';
import { fateOf, type Outcome, reasonOf } from '../posting/outcome.js';
import type { HistoryEntry, RunSummary } from './entry.js';

/**
 * What one run did: poll and predict call it where a thread's outcome is decided. The records wait here
 * until `take` (poll takes them with each page it saves, so a long run holds no more than a page of them,
 * and a killed one has recorded what it saved); `finish` gives the rest and the run's summary.
 */
export class RunRecorder {
  private records: HistoryEntry[] = [];
  private readonly counts: Record<Tally, number> = { posted: 0, skipped: 0, failed: 0 };
  private locked = 0;
  counters: RunSummary['counters'];

  constructor(
    private readonly command: RunSummary['command'],
    private readonly now: () => number,
  ) {}

  /** What became of a thread, as poll's ledger or predict decided it. */
  outcome(thread: { id: string; cell: string }, outcome: Outcome): void {
    if (outcome.kind === 'posted') this.post(thread.id, thread.cell, outcome.conviction, outcome.text, outcome.by);
    else if (outcome.kind === 'skipped') this.skip(thread.id, thread.cell, outcome, outcome.by);
    else this.add(fateOf(outcome), { threadId: thread.id, ...where(thread.cell), reason: reasonOf(outcome) });
  }

  post(threadId: string, cell: string, conviction: number, text: string, by?: DecidedBy): void {
    this.add('posted', { threadId, cell, conviction, text, ...decided(by) });
  }

  skip(threadId: string, cell: string | undefined, { skipKind, reason }: Skip, by?: DecidedBy): void {
    // A run after a long gap meets thousands of locked threads: one count, not a line each.
    if (skipKind === 'locked') this.locked += 1;
    else this.add('skipped', { threadId, ...where(cell), reason, skipKind, ...decided(by) });
  }

  // A line in history.jsonl's words, counted in the summary's (src/domain/fate.ts maps both).
  private add(fate: Fate, line: Omit<HistoryEntry, 'ts' | 'kind'>): void {
    this.counts[TALLY[fate]] += 1;
    this.records.push({ ts: this.ts(), kind: HISTORY_KIND[fate], ...line });
  }

  /** The records kept since the last take, which are then forgotten. */
  take(): HistoryEntry[] {
    const taken = this.records;
    this.records = [];
    return taken;
  }

  /** The records not taken yet and the run's summary, ready to append. */
  finish(started: number, exitCode: number, error?: string): HistoryEntry[] {
    const summary: RunSummary = {
      command: this.command,
      posted: this.counts.posted,
      skipped: this.counts.skipped + this.locked,
      failed: this.counts.failed,
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

function where(cell: string | undefined): { cell?: string } {
  return cell ? { cell } : {};
}

function decided(by: DecidedBy | undefined): { analyzer?: DecidedBy['analyzer']; fallback?: true } {
  return by ? { analyzer: by.analyzer, ...(by.fallback ? { fallback: true } : {}) } : {};
}
