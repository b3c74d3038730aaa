import { AnalyzerError } from '../../errors.js';

/** A failure worth one more try: a timeout, a network error, a 408, 429 or 5xx. */
export class RetryableError extends AnalyzerError {
  constructor(
    message: string,
    /** The failure in a few words, for the trace: "a timeout", "HTTP 503". */
    readonly why: string,
    /** How long the server asked us to wait (Retry-After), if it did. */
    readonly retryAfterMs?: number,
    options: { hint?: string; cause?: unknown } = {},
  ) {
    super(message, options);
  }
}

/** The server could not be reached at all (refused, reset, no route): the next thread will not reach it either. */
export class UnreachableError extends RetryableError {}

/** The pause before the one retry when the server did not ask for one. */
export const DEFAULT_PAUSE_MS = 1_000;
/** A longer Retry-After is not waited out: the thread stays due and a later run asks again. */
export const MAX_PAUSE_MS = 5_000;

/** The pause before retrying after this failure, or why there will be no retry. */
export function pauseBefore(error: RetryableError): { ms: number } | { refuse: string } {
  const asked = error.retryAfterMs;
  if (asked === undefined) return { ms: DEFAULT_PAUSE_MS };
  if (asked > MAX_PAUSE_MS) return { refuse: `the server asked for a pause of ${Math.ceil(asked / 1000)} s` };
  return { ms: asked };
}
