import { compareKey } from '../domain/thread-order.js';
import type { Journal, JournalEntry, State } from './schema.js';

/**
 * What a run holding the lock keeps from a state file that changed behind its back (written by something
 * that did not hold the lock: a hand edit, an older agent that never checks its lock, a run whose lock
 * was taken over and that wrote in the instant before it could tell). Only what keeps the promises: the
 * later cursor (it never moves back), the later pause (polite), and each entry that says a prediction
 * exists or may exist (never-twice), where this run's own says less.
 */
export interface FromDisk {
  cursor: State['cursor'];
  rateLimitedUntil: string | undefined;
  journal: Journal;
}

export function fromDisk(disk: State, before: FromDisk | undefined): FromDisk {
  const kept: FromDisk = {
    cursor: later(disk.cursor, before?.cursor ?? null),
    rateLimitedUntil: laterInstant(disk.rateLimitedUntil, before?.rateLimitedUntil),
    journal: new Map(before?.journal),
  };
  for (const [id, entry] of disk.journal ?? [])
    if (says(entry) > says(kept.journal.get(id))) kept.journal.set(id, entry);
  return kept;
}

/**
 * The state to write: this run's, raised to what was kept from the disk. Except where the disk's entry is
 * one this run wrote itself (`ownMarks`: id to the text of its own "posting" mark): the run has settled
 * that thread since (a POST that certainly did not land: failed or skipped), and knows better.
 */
export function raise(state: State, kept: FromDisk, ownMarks?: ReadonlyMap<string, string>): State {
  let journal = state.journal;
  for (const [id, entry] of kept.journal) {
    if (says(entry) <= says(journal?.get(id))) continue;
    if (ownMarks?.get(id) === JSON.stringify(entry)) continue;
    // A copy: the journal handed in belongs to the caller (the poll ledger's, changed in place).
    const copy: Journal = journal === state.journal ? new Map(state.journal) : (journal ?? new Map());
    copy.set(id, entry);
    journal = copy;
  }
  return {
    ...state,
    cursor: later(state.cursor, kept.cursor),
    rateLimitedUntil: laterInstant(state.rateLimitedUntil, kept.rateLimitedUntil),
    journal,
  };
}

/** How much an entry says a prediction exists: 0 for none (skipped, failed, no entry). */
function says(entry: JournalEntry | undefined): number {
  return entry ? Math.max(0, ['posting', 'unknown', 'posted'].indexOf(entry.status) + 1) : 0;
}

function later(a: State['cursor'], b: State['cursor']): State['cursor'] {
  if (!a || !b) return a ?? b;
  return compareKey(a, b) >= 0 ? a : b;
}

function laterInstant(a: string | undefined, b: string | undefined): string | undefined {
  if (a === undefined || b === undefined) return a ?? b;
  return Date.parse(b) > Date.parse(a) ? b : a;
}
