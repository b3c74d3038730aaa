import type { Thread } from '../domain/thread.js';
import { EXIT, type ExitCode } from '../errors.js';
import type { MalformedThread } from '../service/api.js';
import type { JournalEntry, State } from '../state/schema.js';
import { compareKey, type Cursor, isFuture, nextCursor } from '../domain/cursor.js';
import type { RunRecorder } from '../history/recorder.js';
import type { Outcome } from '../posting/outcome.js';
import { guardAfter } from '../posting/post-once.js';
import { journalOf, MAX_TRIES, mayBePosted, type Journal } from '../posting/journal.js';
import type { Fate } from '../domain/fate.js';
import { addOutcome, emptyReport, type PollReport } from './report.js';

/**
 * What one poll did with each thread: the report the user sees, the journal that keeps a thread from
 * being posted twice (never-twice), and which threads are done with, so the cursor never passes one still due
 * (no-thread-lost).
 */
export class PollLedger {
  readonly report: PollReport;
  readonly journal: Journal;
  exitCode: ExitCode = EXIT.ok;
  /** Set when nothing more can succeed this run (401, rate limit): the remaining threads stay due. */
  stop: Error | undefined;
  private readonly handled: Cursor[] = [];
  private readonly due: Cursor[] = [];

  constructor(
    private readonly state: State,
    private readonly now: () => number,
    /** Absent in a dry run, which records nothing. */
    private readonly recorder?: RunRecorder,
  ) {
    this.report = emptyReport(state.cursor);
    this.journal = journalOf(state);
  }

  /** Done with in an earlier run. */
  alreadyHandled(thread: Cursor): void {
    this.handled.push(keyOf(thread));
  }

  malformed(bad: MalformedThread): void {
    this.handled.push(keyOf(bad));
    // An earlier entry stays: were it "posted" or "unknown", overwriting it would let predict post again.
    if (this.journal.has(bad.id)) return;
    const skip = { skipKind: 'malformed', reason: bad.reason } as const;
    addOutcome(this.report, bad.id, { kind: 'skipped', ...skip });
    this.recorder?.skip(bad.id, undefined, skip);
    this.write(bad, { status: 'skipped', reason: bad.reason });
  }

  /**
   * A thread that holds the key (`refusalOf`): skipped for good the first time it is met, and only an
   * entry in the journal keeps it so; false when an earlier run already did. It never becomes the cursor,
   * which is sent back in the query of the next list.
   */
  refused(thread: Thread, reason: string): boolean {
    if (this.journal.has(thread.id)) return false;
    const skip = { skipKind: 'keyed-thread', reason } as const;
    addOutcome(this.report, thread.id, { kind: 'skipped', ...skip });
    this.recorder?.skip(thread.id, undefined, skip);
    this.write(thread, { status: 'skipped', reason });
    return true;
  }

  leaveDue(thread: Thread): void {
    this.due.push(keyOf(thread));
  }

  tries(thread: Thread): number {
    return this.journal.get(thread.id)?.tries ?? 0;
  }

  /** The outcome in the report and the history, and the journal entry it leaves (never-twice, no-thread-lost). */
  apply(outcome: Outcome, thread: Thread, tries: number): void {
    this.recorder?.outcome(thread, outcome);
    addOutcome(this.report, thread.id, outcome);
    const done = (status: Exclude<Fate, 'failed'>, reason?: string) => {
      this.write(thread, { status, ...(reason ? { reason } : {}) });
      this.handled.push(keyOf(thread));
    };
    switch (outcome.kind) {
      case 'posted':
        done('posted');
        break;
      case 'skipped':
        // "Already predicted" guards the thread like a post of this run's.
        done(guardAfter(outcome) ?? 'skipped', outcome.reason);
        break;
      case 'unknown':
        // Never posted on again, by poll or by predict.
        this.raise(EXIT.temporary);
        done('unknown', outcome.error);
        break;
      case 'failed':
        this.raise(outcome.exitCode);
        // Given up: done with, as a skip is.
        if (!outcome.retry) done('skipped', outcome.error);
        else if (tries + 1 >= MAX_TRIES) done('skipped', `given up after ${tries + 1} temporary failures`);
        else {
          this.write(thread, { status: 'failed', tries: tries + 1 });
          this.leaveDue(thread);
        }
        break;
      case 'stop':
        this.write(thread, { status: 'failed', ...(tries ? { tries } : {}) });
        this.stop ??= outcome.error;
        this.leaveDue(thread);
        break;
    }
  }

  /**
   * The newest handled thread older than every due one, never behind the old cursor, never past what the
   * walk has seen (threads taken from the latest page lie beyond threads not fetched yet), and never onto a
   * thread dated in the future (its journal entry keeps it from being handled twice until then).
   */
  cursor(seenUpTo: Cursor | undefined): Cursor | null {
    const now = this.now();
    const movable = this.handled.filter(
      (key) => !isFuture(key, now) && (seenUpTo === undefined || compareKey(key, seenUpTo) <= 0),
    );
    this.report.cursor = nextCursor(this.state.cursor, movable, this.due);
    return this.report.cursor;
  }

  // Only an entry that guards a post needs to say when it was written: its retention counts from then.
  private write(key: Cursor, entry: Pick<JournalEntry, 'status' | 'tries' | 'reason'>): void {
    const full: JournalEntry = { ts: key.timestamp, ...entry };
    if (mayBePosted(full)) full.at = new Date(this.now()).toISOString();
    this.journal.set(key.id, full);
  }

  // A failure nobody can fix by waiting (1) outranks one the next run may fix (5).
  private raise(code: ExitCode): void {
    const rank = (c: ExitCode) => (c === EXIT.unexpected ? 2 : c === EXIT.ok ? 0 : 1);
    if (rank(code) > rank(this.exitCode)) this.exitCode = code;
  }
}

// Only the key is kept for the cursor: a whole thread, text and all, would stay in memory for the run,
// and a run after a long gap goes through thousands.
function keyOf(key: Cursor): Cursor {
  return { timestamp: key.timestamp, id: key.id };
}
