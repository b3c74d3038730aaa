import type { Cursor } from '../domain/cursor.js';
import type { Journal, JournalEntry, State } from '../state/schema.js';

export type { Journal } from '../state/schema.js';

/** A thread is given up after this many temporary failures, with a reason, instead of forever (no-thread-lost). */
export const MAX_TRIES = 5;
/**
 * How long an entry that says a prediction exists or may exist outlives the moment it was written, once
 * the cursor has passed its thread: it is what keeps a manual `predict` from posting twice. Measured from
 * the post, not from the thread's timestamp, so a week-old thread posted on today is guarded for a week.
 */
export const POSTED_RETENTION_MS = 7 * 24 * 60 * 60_000;
/** Bounds the state file behind the cursor: the newest this many posts (by when they were written) stay. */
export const MAX_POSTED_BEHIND = 10_000;
/**
 * Bounds it ahead of the cursor, where nothing may be dropped: a run takes on no more pages once this many
 * entries wait there (an older thread still due holds the cursor back); later runs go on from there.
 */
export const MAX_AHEAD = 20_000;

/**
 * What the journal must keep. Ahead of the cursor, or at its timestamp (ties are ordered however the
 * service likes), everything: that is what stops a thread from being handled twice. Behind it, poll never
 * looks again, so only what guards against a second post stays, for a week after it was written.
 */
export function pruneJournal(journal: Journal, cursor: Cursor | null, now: number): Journal {
  const cursorMs = cursor ? Date.parse(cursor.timestamp) : Number.NEGATIVE_INFINITY;
  const kept: Journal = new Map();
  const behind: Array<[string, JournalEntry]> = [];
  for (const [id, entry] of journal) {
    if (!(Date.parse(entry.ts) < cursorMs)) kept.set(id, entry);
    else if (mayBePosted(entry) && now - writtenAt(entry) < POSTED_RETENTION_MS) behind.push([id, entry]);
  }
  behind.sort(([, a], [, b]) => writtenAt(b) - writtenAt(a));
  for (const [id, entry] of behind.slice(0, MAX_POSTED_BEHIND)) kept.set(id, entry);
  return kept;
}

/** Entries at or after the cursor's timestamp: what the backlog bound counts. */
export function aheadOf(journal: Journal, cursor: Cursor | null): number {
  if (!cursor) return journal.size;
  const cursorMs = Date.parse(cursor.timestamp);
  let n = 0;
  for (const entry of journal.values()) if (!(Date.parse(entry.ts) < cursorMs)) n += 1;
  return n;
}

// Entries written before `at` existed count from their thread's timestamp, as they always did.
function writtenAt(entry: JournalEntry): number {
  const at = entry.at === undefined ? Number.NaN : Date.parse(entry.at);
  return Number.isFinite(at) ? at : Date.parse(entry.ts);
}

/** Done with: poll does not try it again. */
export function isHandled(entry: JournalEntry | undefined): boolean {
  return entry?.status === 'posted' || entry?.status === 'skipped' || entry?.status === 'unknown';
}

/** A prediction on it exists or may exist: nothing may post on it again, poll or predict (never-twice). */
export function mayBePosted(entry: JournalEntry | undefined): boolean {
  return entry?.status === 'posted' || entry?.status === 'posting' || entry?.status === 'unknown';
}

/** A copy of `journal` with the entry for `id` set, or removed when `entry` is undefined. */
export function withEntry(journal: Journal | undefined, id: string, entry: JournalEntry | undefined): Journal {
  const copy = new Map(journal);
  if (entry) copy.set(id, entry);
  else copy.delete(id);
  return copy;
}

/** A copy: a run changes its own journal and writes it when it chooses. */
export function journalOf(state: State): Journal {
  return new Map(state.journal);
}
