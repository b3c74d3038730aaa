import type { Decision } from '../analysis/types.js';
import { refusalOf } from '../domain/keyed-thread.js';
import type { Skip, SkipKind } from '../domain/skip.js';
import type { Thread } from '../domain/thread.js';
import type { JournalEntry } from '../state/schema.js';

/**
 * When a thread is skipped, for `poll` and `predict` alike (`analyze` shows the same). In this order,
 * the first that applies wins:
 *
 * 1. the journal (`skipByJournal`): this agent has posted on it, or may have (never-twice);
 * 2. the thread (`skipByThread`): locked, or a field of it holds a key of this agent (`refusalOf`);
 * 3. the decision (`decide`, src/analysis/policy.ts): the analyzer's output sized or checked by the profile;
 * 4. the service's answer to the POST (`sendPrediction`, src/posting/send.ts): 409 already predicted,
 *    423 locked since.
 *
 * A poll also skips the list elements it cannot read (`malformed`, src/service/api.ts), and never meets
 * again a thread its journal says is done with (`isHandled`, src/posting/journal.ts): that is not a new
 * skip, and it is not recorded again.
 *
 * What a person who runs `predict` on one thread may change is `BY_HAND`, and nothing else.
 */

/** How `predict` by hand meets each kind of skip. */
export type ByHand =
  /** As a poll: skipped with its reason, exit 0. */
  | 'skips'
  /** The person asked for this very thread, so it is an error with its exit code, not a quiet skip. */
  | 'refuses'
  /** `--conviction` replaces the decision: the user's size is posted, the analyzer is not asked. */
  | 'own-values-override';

export const BY_HAND: Readonly<Record<SkipKind, ByHand>> = {
  'already-predicted': 'skips',
  'may-have-landed': 'skips',
  locked: 'refuses',
  malformed: 'refuses',
  'keyed-thread': 'skips',
  'no-evidence': 'own-values-override',
  'weak-evidence': 'own-values-override',
  'mixed-evidence': 'own-values-override',
  bias: 'own-values-override',
  'below-threshold': 'own-values-override',
  'analyzer-skip': 'own-values-override',
  'unusable-answer': 'own-values-override',
  contradiction: 'own-values-override',
  other: 'skips',
};

/**
 * Step 1. A thread this agent has posted on, or may have, is never posted on again. A poll's earlier skip
 * (`skipped`) is no bar: a poll never reads that thread again, and a person running `predict` on it asks
 * for a post the poll did not make. A `posting` mark met by a poll is not a skip but an unknown outcome
 * (src/poll/prepare-thread.ts): that run died mid-POST, and it is counted as a failure.
 */
export function skipByJournal(entry: JournalEntry | undefined): Skip | undefined {
  if (entry?.status === 'posted') return { skipKind: 'already-predicted', reason: 'already predicted by this agent' };
  if (entry?.status === 'posting' || entry?.status === 'unknown')
    return { skipKind: 'may-have-landed', reason: 'an earlier post on it may have landed; not posted again' };
  return undefined;
}

/**
 * Step 2, before any analyzer reads the thread. A thread that holds a key of this agent in its id, cell,
 * text or a citation is refused whole (src/domain/keyed-thread.ts): its id would go into a post, its cell
 * into the post's text, its text to a model or a script.
 */
export function skipByThread(
  thread: Pick<Thread, 'id' | 'projectId' | 'text' | 'citations' | 'locked'>,
  keys: readonly string[],
): Skip | undefined {
  if (thread.locked) return { skipKind: 'locked', reason: 'locked' };
  const refusal = refusalOf(thread, keys);
  return refusal ? { skipKind: 'keyed-thread', reason: refusal } : undefined;
}

/** A skip as the decision `predict` and `analyze` report. */
export function skipDecision(skip: Skip): Decision {
  return { action: 'skip', ...skip };
}
