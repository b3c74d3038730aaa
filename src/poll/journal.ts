import type { Cursor } from '../service/api.js';
import type { JournalEntry, State } from '../state/schema.js';
import { isAfter } from './cursor.js';

export type Journal = Record<string, JournalEntry>;

/** A thread is given up after this many temporary failures, with a reason, instead of forever (R1). */
export const MAX_TRIES = 5;
/** Far more than a run ever sees between two cursors; bounds the state file whatever happens. */
const MAX_ENTRIES = 5000;
/**
 * How long an entry outlives its thread's creation once the cursor has passed it. The interface does not
 * say when threads lock (§3; the predictions' horizon is 3 h): an entry that says a prediction exists or
 * may exist is what keeps a manual `predict` from posting twice, so those are kept far longer.
 */
export const JOURNAL_RETENTION_MS = 6 * 60 * 60_000;
export const POSTED_RETENTION_MS = 7 * 24 * 60 * 60_000;

/**
 * An entry can go once its thread is both behind the cursor (poll will not fetch it again) and old
 * enough that nobody posts on it any more. Entries after the cursor must stay, or a thread handled
 * ahead of an older retry would be posted on twice.
 */
export function pruneJournal(journal: Journal, cursor: Cursor | null, now: number): Journal {
  const kept = Object.entries(journal).filter(([id, entry]) => {
    const keepFor = mayBePosted(entry) ? POSTED_RETENTION_MS : JOURNAL_RETENTION_MS;
    return isAfter({ timestamp: entry.ts, id }, cursor) || !(Date.parse(entry.ts) < now - keepFor);
  });
  kept.sort(([, a], [, b]) => Date.parse(b.ts) - Date.parse(a.ts));
  return Object.fromEntries(kept.slice(0, MAX_ENTRIES));
}

/** Done with: poll does not try it again. */
export function isHandled(entry: JournalEntry | undefined): boolean {
  return entry?.status === 'posted' || entry?.status === 'skipped' || entry?.status === 'unknown';
}

/** A prediction on it exists or may exist: nothing may post on it again, poll or predict (R2). */
export function mayBePosted(entry: JournalEntry | undefined): boolean {
  return entry?.status === 'posted' || entry?.status === 'posting' || entry?.status === 'unknown';
}

export function journalOf(state: State): Journal {
  return { ...(state.journal ?? {}) };
}
