import type { Thread } from '../domain/thread.js';
import { EXIT, type ExitCode } from '../errors.js';
import type { Cursor, MalformedThread } from '../service/api.js';
import type { State } from '../state/schema.js';
import { nextCursor } from './cursor.js';
import type { Outcome } from './handle-thread.js';
import { journalOf, MAX_TRIES, type Journal } from './journal.js';
import type { PollReport } from './report.js';

/**
 * What one poll did with each thread: the report the user sees, the journal that keeps a thread from
 * being posted twice (R2), and which threads are done with, so the cursor never passes one still due (R1).
 */
export class PollLedger {
  readonly report: PollReport;
  readonly journal: Journal;
  exitCode: ExitCode = EXIT.ok;
  /** Set when nothing more can succeed this run (401, rate limit): the remaining threads stay due. */
  stop: Error | undefined;
  private readonly handled: Cursor[] = [];
  private readonly due: Cursor[] = [];

  constructor(private readonly state: State) {
    this.report = { posted: [], skipped: [], failed: [], cursor: state.cursor };
    this.journal = journalOf(state);
  }

  /** Done with in an earlier run. */
  alreadyHandled(thread: Cursor): void {
    this.handled.push(thread);
  }

  malformed(bad: MalformedThread): void {
    this.handled.push(bad);
    // An earlier entry stays: were it "posted" or "unknown", overwriting it would let predict post again.
    if (this.journal[bad.id]) return;
    this.report.skipped.push({ threadId: bad.id, reason: bad.reason });
    this.journal[bad.id] = { ts: bad.timestamp, status: 'skipped', reason: bad.reason };
  }

  leaveDue(thread: Thread): void {
    this.due.push(thread);
  }

  /** Written to disk before the POST leaves (R2). */
  posting(thread: Thread, tries: number): void {
    this.journal[thread.id] = { ts: thread.timestamp, status: 'posting', ...(tries ? { tries } : {}) };
  }

  apply(outcome: Outcome, thread: Thread, tries: number): void {
    const { report, journal } = this;
    const done = (status: 'posted' | 'skipped' | 'unknown', reason?: string) => {
      journal[thread.id] = { ts: thread.timestamp, status, ...(reason ? { reason } : {}) };
      this.handled.push(thread);
    };
    switch (outcome.kind) {
      case 'posted':
        report.posted.push({ threadId: thread.id, conviction: outcome.conviction, text: outcome.text, predictionId: outcome.predictionId });
        return done('posted');
      case 'skipped':
        report.skipped.push({ threadId: thread.id, reason: outcome.reason });
        return done('skipped', outcome.reason);
      case 'unknown':
        // Never posted on again, by poll or by predict (R2).
        report.failed.push({ threadId: thread.id, error: outcome.error });
        this.raise(EXIT.temporary);
        return done('unknown', outcome.error);
      case 'failed':
        report.failed.push({ threadId: thread.id, error: outcome.error });
        this.raise(outcome.exitCode);
        if (!outcome.retry) return done('skipped', outcome.error);
        if (tries + 1 >= MAX_TRIES) return done('skipped', `given up after ${tries + 1} temporary failures`);
        journal[thread.id] = { ts: thread.timestamp, status: 'failed', tries: tries + 1 };
        return this.leaveDue(thread);
      case 'stop':
        report.failed.push({ threadId: thread.id, error: outcome.error.message });
        journal[thread.id] = { ts: thread.timestamp, status: 'failed', ...(tries ? { tries } : {}) };
        this.stop ??= outcome.error;
        return this.leaveDue(thread);
    }
  }

  /** The newest handled thread older than every due one, never behind the old cursor. */
  cursor(): Cursor | null {
    return (this.report.cursor = nextCursor(this.state.cursor, this.handled, this.due));
  }

  // A failure nobody can fix by waiting (1) outranks one the next run may fix (5).
  private raise(code: ExitCode): void {
    const rank = (c: ExitCode) => (c === EXIT.unexpected ? 2 : c === EXIT.ok ? 0 : 1);
    if (rank(code) > rank(this.exitCode)) this.exitCode = code;
  }
}
