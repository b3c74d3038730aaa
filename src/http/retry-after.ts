/** The service asks for at least 60 s after a 429 (interface.md §7). */
export const MIN_BACKOFF_MS = 60_000;
/** A Retry-After beyond this is treated as a mistake, not obeyed for days. */
export const MAX_BACKOFF_MS = 60 * 60_000;

/**
 * How long to stay away after a 429: max(60 s, Retry-After), where Retry-After is seconds or an
 * HTTP date; missing or garbage means 60 s; absurd values are capped (and the caller says so).
 */
export function backoffMs(retryAfter: string | string[] | undefined, now: number): { ms: number; capped: boolean } {
  const raw = (Array.isArray(retryAfter) ? retryAfter[0] : retryAfter)?.trim() ?? '';
  let asked = 0;
  if (/^\d+(\.\d+)?$/.test(raw)) asked = Number(raw) * 1000;
  else if (raw) {
    const date = Date.parse(raw);
    if (Number.isFinite(date)) asked = date - now;
  }
  // Infinity (a number too long to represent) is absurd, not missing: it is capped like any other.
  const ms = Math.max(MIN_BACKOFF_MS, Number.isNaN(asked) ? 0 : asked);
  return ms > MAX_BACKOFF_MS ? { ms: MAX_BACKOFF_MS, capped: true } : { ms, capped: false };
}
