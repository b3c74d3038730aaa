import { compareKey } from './thread-order.js';

// Threads are ordered by (timestamp, id). Timestamps are compared as instants, because the service may
// write one instant in several ISO forms; ids break ties, as text. The service may break ties otherwise
// (ids that are numbers, say): so a thread at the cursor's own timestamp is never taken as old by its id
// alone, and the journal keeps every entry at that timestamp to tell which of them were handled.

/** Where a poll has read up to: the newest thread it may pass, by the rules below. */
export interface Cursor {
  timestamp: string;
  id: string;
}

/** A thread stamped this far beyond the local clock is dated wrongly (a time zone, seconds for ms). */
export const FUTURE_SKEW_MS = 15 * 60_000;

export { compareKey };

export function maxKey(keys: Cursor[]): Cursor | undefined {
  let best: Cursor | undefined;
  for (const key of keys) if (!best || compareKey(key, best) > 0) best = key;
  return best;
}

export function isAfter(key: Cursor, cursor: Cursor | null): boolean {
  return cursor === null || compareKey(key, cursor) > 0;
}

/** Not known to be behind the cursor: later, or at its timestamp with another id (the journal decides). */
export function mayBeNew(key: Cursor, cursor: Cursor | null): boolean {
  if (cursor === null) return true;
  const t = Date.parse(key.timestamp);
  const tc = Date.parse(cursor.timestamp);
  return t > tc || (t === tc && key.id !== cursor.id);
}

export function isFuture(key: Cursor, now: number): boolean {
  return Date.parse(key.timestamp) > now + FUTURE_SKEW_MS;
}

/**
 * The next cursor: the newest handled thread that is older than every thread still due, and never older
 * than the current cursor (it never moves backwards, never passes a thread that must be retried: no-thread-lost).
 */
export function nextCursor(current: Cursor | null, handled: Cursor[], due: Cursor[]): Cursor | null {
  const oldestDue = due.reduce<Cursor | undefined>(
    (min, key) => (!min || compareKey(key, min) < 0 ? key : min),
    undefined,
  );
  const movable = oldestDue ? handled.filter((key) => compareKey(key, oldestDue) < 0) : handled;
  const best = maxKey(movable);
  if (!best) return current;
  if (current && compareKey(best, current) <= 0) return current;
  return { timestamp: best.timestamp, id: best.id };
}
