import type { HeldState } from '../state/held-state.js';
import type { Journal, JournalEntry } from '../state/schema.js';

/** A thread about to be posted on: its key, and the temporary failures it has had so far. */
export interface Marked {
  thread: { id: string; timestamp: string };
  tries?: number;
}

/**
 * What postOnce needs of the state: the never-twice mark. Given to it by poll and predict alike, so that
 * the rule "the mark is on disk before the POST leaves" is written in one place (post-once.ts), not in
 * callbacks of its callers.
 */
export interface PostingJournal {
  /**
   * Marks every thread "posting" and writes them in one durable write, fenced by the lock (one-writer),
   * or throws: then nothing may be sent.
   */
  markPosting(batch: readonly Marked[]): void;
}

/**
 * The one implementation, over the run's held state. `journal` is the run's own copy, changed in place
 * (poll's ledger goes on writing outcomes into it, saved with its page). `held` is absent only in a dry
 * run, which writes nothing.
 */
export function heldJournal(held: HeldState | undefined, journal: Journal, now: () => number): PostingJournal {
  return {
    markPosting(batch) {
      // The time is written with the mark: retention of an entry that guards a post counts from it.
      const at = new Date(now()).toISOString();
      for (const { thread, tries } of batch) journal.set(thread.id, postingEntry(thread.timestamp, tries, at));
      held?.update({ journal });
    },
  };
}

function postingEntry(ts: string, tries: number | undefined, at: string): JournalEntry {
  return { ts, status: 'posting', ...(tries ? { tries } : {}), at };
}
