import type { DecidedBy } from '../analysis/types.js';
import type { Fate } from '../domain/fate.js';
import type { Skip } from '../domain/skip.js';
import type { ExitCode } from '../errors.js';
import type { Prediction } from '../service/schemas.js';

/**
 * What became of one thread: poll reports and journals it; predict reports it or throws its error. Each
 * kind but `stop` is the thread's fate (src/domain/fate.ts); `stop` is the run's end, and the thread's
 * fate then is `failed`: it stays due.
 */
export type Outcome =
  /**
   * `prediction`: the service's object, when its answer could be read (a dry run has none). `by`: the
   * analyzer that decided, here and on a skip, when one did.
   */
  | {
      kind: 'posted';
      conviction: number;
      text: string;
      predictionId: string | null;
      prediction?: Prediction;
      by?: DecidedBy;
    }
  /** `predicted`: the service already holds this agent's prediction on it (409). */
  | ({ kind: 'skipped'; predicted?: true; by?: DecidedBy } & Skip)
  /** retry: the thread stays due and a later run tries again; otherwise it is done with. */
  | { kind: 'failed'; error: string; retry: boolean; exitCode: ExitCode; cause?: unknown }
  /** The POST may have landed: the thread is done with and never posted on again. */
  | { kind: 'unknown'; error: string; cause?: unknown }
  /** Nothing more can succeed this run (401, rate limit): the thread stays due. */
  | { kind: 'stop'; error: Error };

/** The thread's fate: the one word the journal, the report and the history map from. */
export function fateOf(outcome: Outcome): Fate {
  return outcome.kind === 'stop' ? 'failed' : outcome.kind;
}

/** Why it was not posted: the reason of a skip, the error of a failure. */
export function reasonOf(outcome: Exclude<Outcome, { kind: 'posted' }>): string {
  if (outcome.kind === 'skipped') return outcome.reason;
  return outcome.kind === 'stop' ? outcome.error.message : outcome.error;
}

/** What to post, once the journal, the lock and the analyzer have had their say. */
export interface ToPost {
  kind: 'post';
  conviction: number;
  text: string;
  by?: DecidedBy;
}
