import type { Cursor } from '../service/api.js';

// Threads are ordered by (timestamp, id). Timestamps are compared as instants, because the service may
// write one instant in several ISO forms; ids break ties, as text.

export function compareKey(a: Cursor, b: Cursor): number {
  const ta = Date.parse(a.timestamp);
  const tb = Date.parse(b.timestamp);
  if (ta !== tb) return ta < tb ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

export function maxKey(keys: Cursor[]): Cursor | undefined {
  let best: Cursor | undefined;
  for (const key of keys) if (!best || compareKey(key, best) > 0) best = key;
  return best;
}

export function isAfter(key: Cursor, cursor: Cursor | null): boolean {
  return cursor === null || compareKey(key, cursor) > 0;
}

/**
 * The next cursor: the newest handled thread that is older than every thread still due, and never older
 * than the current cursor (it never moves backwards, never passes a thread that must be retried: R1).
 */
export function nextCursor(current: Cursor | null, handled: Cursor[], due: Cursor[]): Cursor | null {
  const oldestDue = due.reduce<Cursor | undefined>((min, key) => (!min || compareKey(key, min) < 0 ? key : min), undefined);
  const movable = oldestDue ? handled.filter((key) => compareKey(key, oldestDue) < 0) : handled;
  const best = maxKey(movable);
  if (!best) return current;
  if (current && compareKey(best, current) <= 0) return current;
  return { timestamp: best.timestamp, id: best.id };
}
