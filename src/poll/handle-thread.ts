import { analyzeThread, type Analyzer } from '../analysis/index.js';
import type { Profile } from '../domain/profile.js';
import type { Thread } from '../domain/thread.js';
import { AnalyzerConfigError, AuthError, BudgetError, ConnectionSetupError, EXIT, LockedError, mayHaveLanded, RateLimitedError, RedirectError, TemporaryError, type ExitCode } from '../errors.js';
import { oneLine } from '../output/sanitize.js';
import type { ServiceApi } from '../service/api.js';
import type { JournalEntry } from '../state/schema.js';

export type Outcome =
  | { kind: 'posted'; conviction: number; text: string; predictionId: string | null }
  | { kind: 'skipped'; reason: string }
  /** retry: the thread stays due and a later run tries again; otherwise it is done with. */
  | { kind: 'failed'; error: string; retry: boolean; exitCode: ExitCode }
  /** The POST may have landed: the thread is done with and never posted on again (R2). */
  | { kind: 'unknown'; error: string }
  /** Nothing more can succeed this run (401, rate limit): the thread stays due. */
  | { kind: 'stop'; error: Error };

/** What to post, once the journal, the lock and the analyzer have had their say. */
export interface ToPost {
  kind: 'post';
  conviction: number;
  text: string;
}

export interface PrepareDeps {
  /** Absent while a run has met only locked threads: they need no analysis. */
  analyzer: Analyzer | undefined;
  profile: Profile | undefined;
  dryRun: boolean;
  trace: (line: string) => void;
}

/** Everything before the POST: never throws, and never sends anything. */
export async function prepareThread(thread: Thread, previous: JournalEntry | undefined, deps: PrepareDeps): Promise<Outcome | ToPost> {
  if (previous?.status === 'posting') {
    // A run died between "about to post" and "posted": that post may have landed, and a doubled
    // prediction is worse than a missed one (R2).
    return { kind: 'unknown', error: 'an earlier run was interrupted while posting on it; not posted again in case that post landed' };
  }
  if (thread.locked) return { kind: 'skipped', reason: 'locked' };
  if (!deps.analyzer || !deps.profile) throw new Error(`bug: thread ${thread.id} is open but no analyzer was loaded`);
  let decision;
  try {
    const analyzed = await analyzeThread(deps.analyzer, thread, deps.profile);
    for (const line of analyzed.trace) deps.trace(line);
    decision = analyzed.decision;
  } catch (error) {
    if (error instanceof AnalyzerConfigError) return { kind: 'stop', error };
    return { kind: 'failed', error: `analysis failed: ${message(error)}`, retry: true, exitCode: EXIT.temporary };
  }
  if (decision.action === 'skip') return { kind: 'skipped', reason: decision.reason };
  if (deps.dryRun) return { kind: 'posted', conviction: decision.conviction, text: decision.text, predictionId: null };
  return { kind: 'post', conviction: decision.conviction, text: decision.text };
}

/** The POST, whose "posting" mark the caller has already written durably (R2). Never throws. */
export async function postPrediction(thread: Thread, post: ToPost, api: ServiceApi): Promise<Outcome> {
  try {
    const result = await api.predict(thread.id, post.text, post.conviction);
    if (result.status === 'already') return { kind: 'skipped', reason: 'already predicted by this agent' };
    return { kind: 'posted', conviction: post.conviction, text: post.text, predictionId: result.prediction?.id ?? null };
  } catch (error) {
    if (error instanceof LockedError) return { kind: 'skipped', reason: 'locked' };
    // 401 and 429 mean the request was not processed; a spent budget or an address that cannot work as
    // set up (no such host, an untrusted certificate) means it was not sent, and no later post can be.
    if (error instanceof AuthError || error instanceof RateLimitedError || error instanceof BudgetError || error instanceof ConnectionSetupError) {
      return { kind: 'stop', error };
    }
    // A redirect is the service's doing, not the thread's: the thread stays due, and every later POST of
    // the run would meet it too. A 303 may have landed (below).
    if (error instanceof RedirectError && !mayHaveLanded(error)) return { kind: 'stop', error };
    if (mayHaveLanded(error)) {
      // The POST left and no readable answer came back: it may have landed, so it is not sent again (R2).
      return { kind: 'unknown', error: `${message(error)}; the outcome is unknown, so it is not posted again` };
    }
    if (error instanceof TemporaryError) return { kind: 'failed', error: message(error), retry: true, exitCode: EXIT.temporary };
    // Refused (4xx) or a bug: sending it again would fail again. Not "usage" (2): the user typed nothing
    // wrong, the service refused what the analyzer produced.
    return { kind: 'failed', error: message(error), retry: false, exitCode: EXIT.unexpected };
  }
}

function message(error: unknown): string {
  return oneLine(error instanceof Error ? error.message : String(error), 200);
}
