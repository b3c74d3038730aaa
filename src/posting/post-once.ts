import type { CrashPoint } from '../context.js';
import type { Fate } from '../domain/fate.js';
import type { Thread } from '../domain/thread.js';
import type { ServiceApi } from '../service/api.js';
import type { Outcome, ToPost } from './outcome.js';
import type { Marked, PostingJournal } from './posting-journal.js';
import { sendPrediction } from './send.js';

/**
 * The rule that keeps a prediction from going out twice, for poll and predict alike. Before any POST
 * leaves, every thread of the batch is marked "posting" and that mark is on disk: a run killed after
 * sending leaves a thread that no later run (poll or predict) posts on again. After the answers, each
 * thread's entry says what guardAfter() says. Each item comes back with its outcome.
 *
 * The marks go through the `journal` it is given (`heldJournal`, one write for the batch); when that
 * write throws, nothing is sent.
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
