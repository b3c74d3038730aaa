import type { CrashPoint } from '../context.js';
import type { Fate } from '../domain/fate.js';
import type { Thread } from '../domain/thread.js';
import type { ServiceApi } from '../service/api.js';
import type { HeldState } from '../state/held-state.js';
import type { Journal, JournalEntry } from '../state/schema.js';
import type { Outcome, ToPost } from './outcome.js';
import { sendPrediction } from './send.js';

/**
 * The rule that keeps a prediction from going out twice, for poll and predict alike. Before any POST
 * leaves, every thread of the batch is marked "posting" and that mark is on disk: a run killed after
 * sending leaves a thread that no later run (poll or predict) posts on again. After the answers, each
 * thread's entry says what guardAfter() says. Each item comes back with its outcome.
 *
 * The marks go through the `journal` it is given (`heldJournal` below, one write for the batch); when
 * that write throws, nothing is sent. The rule and the write it depends on are in this one file.
 */
export async function postOnce<T extends Marked & { thread: Thread; post: ToPost }>(
  batch: readonly T[],
  deps: {
    api: ServiceApi;
    journal: PostingJournal;
    crashPoint?: ((point: CrashPoint) => void) | undefined;
  },
): Promise<Array<T & { outcome: Outcome }>> {
  if (!batch.length) return [];
  deps.journal.markPosting(batch);
  deps.crashPoint?.('before-post');
  // Side by side: each mark is already on disk, whatever order the answers come in.
  const sent = await Promise.all(
    batch.map(async (item) => ({ ...item, outcome: await sendPrediction(item.thread, item.post, deps.api) })),
  );
  deps.crashPoint?.('after-post');
  return sent;
}

/**
 * What a thread's entry must say once its POST has answered: "posted" when a prediction exists (sent now,
 * or already there), "unknown" when it may exist (never sent again), or nothing to guard: the POST
 * certainly stored nothing, and the caller may let the thread be posted on later.
 */
export function guardAfter(outcome: Outcome): Extract<Fate, 'posted' | 'unknown'> | undefined {
  if (outcome.kind === 'posted' || (outcome.kind === 'skipped' && outcome.predicted)) return 'posted';
  if (outcome.kind === 'unknown') return 'unknown';
  return undefined;
}

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
