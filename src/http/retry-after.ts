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
