import type { Thread } from '../domain/thread.js';
import {
  AuthError,
  BudgetError,
  ConnectionSetupError,
  EXIT,
  LockedError,
  mayHaveLanded,
  messageOf,
  RateLimitedError,
  RedirectError,
  TemporaryError,
} from '../errors.js';
import { oneLine } from '../output/sanitize.js';
import type { ServiceApi } from '../service/api.js';
import type { Outcome, ToPost } from './outcome.js';

/** One POST and what its answer means for the thread. Never throws; only postOnce calls it. */
export async function sendPrediction(thread: Thread, post: ToPost, api: ServiceApi): Promise<Outcome> {
  try {
    const result = await api.predict(thread.id, post.text, post.conviction);
    if (result.status === 'already')
      return {
        kind: 'skipped',
        skipKind: 'already-predicted',
        reason: 'already predicted by this agent',
        predicted: true,
      };
    return {
      kind: 'posted',
      conviction: post.conviction,
      text: post.text,
      predictionId: result.prediction?.id ?? null,
      ...(result.prediction ? { prediction: result.prediction } : {}),
      ...(post.by ? { by: post.by } : {}),
    };
  } catch (error) {
    const message = oneLine(messageOf(error), 200);
    if (error instanceof LockedError) return { kind: 'skipped', skipKind: 'locked', reason: 'locked' };
    // 401 and 429 mean the request was not processed; a spent budget or an address that cannot work as
    // set up (no such host, an untrusted certificate) means it was not sent, and no later post can be.
    if (
      error instanceof AuthError ||
      error instanceof RateLimitedError ||
      error instanceof BudgetError ||
      error instanceof ConnectionSetupError
    ) {
      return { kind: 'stop', error };
    }
    // A redirect is the service's doing, not the thread's: the thread stays due, and every later POST of
    // the run would meet it too. A 303 may have landed (below).
    if (error instanceof RedirectError && !mayHaveLanded(error)) return { kind: 'stop', error };
    if (mayHaveLanded(error)) {
      // The POST left and no readable answer came back: it may have landed, so it is not sent again.
      return {
        kind: 'unknown',
        error: `${message}; the outcome is unknown, so it is not posted again`,
        cause: error,
      };
    }
    if (error instanceof TemporaryError)
      return { kind: 'failed', error: message, retry: true, exitCode: EXIT.temporary, cause: error };
    // Refused (4xx) or a bug: sending it again would fail again. Not "usage" (2): the user typed nothing
    // wrong, the service refused what the analyzer produced.
    return { kind: 'failed', error: message, retry: false, exitCode: EXIT.unexpected, cause: error };
  }
}
