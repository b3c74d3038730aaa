import { BusyError, RateLimitedError } from '../errors.js';
import type { HeldState } from '../state/held-state.js';
import type { Lock } from '../state/lock.js';
import type { State } from '../state/schema.js';
import type { StateStore } from '../state/state-store.js';

// The rate-limit pause (polite, docs/guarantees.md), in one place: how long a 429 asks for, storing it the
// moment it arrives, whether one is in force, and what a request does inside it (wait, or refuse).

/** The service asks for at least 60 s after a 429 (docs/service.md#statuses). */
export const MIN_BACKOFF_MS = 60_000;
/** A Retry-After beyond this is treated as a mistake, not obeyed for days. */
export const MAX_BACKOFF_MS = 60 * 60_000;

/**
 * Retry-After as seconds or an HTTP date, in ms from `now`; undefined when absent or unreadable.
 * A date in the past means "now". Infinity (a number too long to represent) is absurd, not missing:
 * it is returned as such, for the caller to cap or refuse.
 */
export function retryAfterMs(header: string | string[] | undefined, now: number): number | undefined {
  const raw = (Array.isArray(header) ? header[0] : header)?.trim() ?? '';
  if (/^\d+(\.\d+)?$/.test(raw)) return Number(raw) * 1000;
  const date = raw ? Date.parse(raw) : Number.NaN;
  return Number.isFinite(date) ? Math.max(0, date - now) : undefined;
}

/**
 * How long to stay away from the service after a 429: max(60 s, Retry-After); missing or garbage means
 * 60 s; absurd values are capped (and the caller says so).
 */
export function backoffMs(retryAfter: string | string[] | undefined, now: number): { ms: number; capped: boolean } {
  const ms = Math.max(MIN_BACKOFF_MS, retryAfterMs(retryAfter, now) ?? 0);
  return ms > MAX_BACKOFF_MS ? { ms: MAX_BACKOFF_MS, capped: true } : { ms, capped: false };
}

/** What a 429 asks for: the instant before which nothing is sent, and how to say why. */
export function pauseAfter429(retryAfter: string | string[] | undefined, now: number): { until: number; why: string } {
  const { ms, capped } = backoffMs(retryAfter, now);
  const why = capped
    ? `rate limited (the service asked for an absurd pause; capped at ${ms / 60_000} min)`
    : 'rate limited by the service';
  return { until: now + ms, why };
}

/** Why a request waits for a pause stored earlier. */
export const EARLIER_PAUSE = 'rate limited (a pause the service asked for earlier)';

export interface WaitOutOptions {
  clock: { now(): number; sleep(ms: number, signal?: AbortSignal): Promise<void> };
  /** Ms left of the run: a pause longer than that is not waited out. */
  left: number;
  /** Whether this command may wait inside a pause at all (else it is refused at once). */
  wait: boolean | undefined;
  onWait?: ((ms: number, why: string) => void) | undefined;
  signal?: AbortSignal | undefined;
}

/** What a request does inside a pause: waits it out when the run may and can, else nothing is sent. */
export async function waitOut(until: number, why: string, options: WaitOutOptions): Promise<void> {
  const ms = until - options.clock.now();
  if (ms <= 0) return;
  if (!options.wait || ms > options.left) {
    throw new RateLimitedError(`${why} until ${new Date(until).toISOString()}`, until, {
      hint: 'nothing is sent before then; the next run after that continues',
    });
  }
  options.onWait?.(ms, why);
  await options.clock.sleep(ms, options.signal);
  // Stopped while waiting: the request is not sent, and a 429 means the one before was not processed.
  if (options.signal?.aborted)
    throw new RateLimitedError(`${why} until ${new Date(until).toISOString()}; stopped while waiting`, until, {
      hint: 'nothing is sent before then; the next run after that continues',
    });
}

/** The pause a 429 asked for, as stored by an earlier run, if any. */
export function storedPause(state: Pick<State, 'rateLimitedUntil'>): number | undefined {
  const until = state.rateLimitedUntil ? Date.parse(state.rateLimitedUntil) : Number.NaN;
  return Number.isFinite(until) ? until : undefined;
}

/** The stored pause if it is still in force at `now`. */
export function pausedUntil(state: Pick<State, 'rateLimitedUntil'>, now: number): number | undefined {
  const until = storedPause(state);
  return until !== undefined && until > now ? until : undefined;
}

/** What a poll inside a pause reports: it sends nothing at all. */
export function pauseNote(state: Pick<State, 'rateLimitedUntil'>): string {
  return `rate limited until ${state.rateLimitedUntil}: nothing sent this run`;
}

/** The pause to leave in the state at the end of a run: the client's latest, if it still lies ahead. */
export function pauseToKeep(pauseEnds: number | undefined, now: number): string | undefined {
  return pauseEnds !== undefined && pauseEnds > now ? new Date(pauseEnds).toISOString() : undefined;
}

/**
 * A pause the service asked for (a 429 on any request) is stored the moment it arrives, so that the next
 * cron run sends nothing inside it (polite), even if this one is killed while it waits the pause out. A command
 * that does not hold the lock takes it briefly and writes the pause into the state as it is on disk now;
 * if another run is busy, that run will meet the 429 itself.
 */
export function storePause(
  until: number,
  { store, held, takeLock }: { store: StateStore; held: HeldState | undefined; takeLock: () => Lock },
): void {
  const rateLimitedUntil = new Date(until).toISOString();
  if (held) {
    held.update({ rateLimitedUntil });
    return;
  }
  let lock: Lock | undefined;
  try {
    lock = takeLock();
    const fresh = store.read();
    if (fresh) store.write({ ...fresh, rateLimitedUntil }, undefined, lock.confirm);
  } catch (error) {
    if (!(error instanceof BusyError)) throw error;
  } finally {
    lock?.release();
  }
}
