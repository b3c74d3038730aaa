import { describe, expect, it } from 'vitest';
import { isHandled, JOURNAL_RETENTION_MS, journalOf, MAX_TRIES, POSTED_RETENTION_MS, pruneJournal, type Journal } from '../../src/poll/journal.js';
import type { State } from '../../src/state/schema.js';

const T0 = Date.parse('2025-06-01T12:00:00.000Z');
const at = (minutes: number) => new Date(T0 + minutes * 60_000).toISOString();
const HOUR = 60;

describe('pruneJournal: keep what still guards a thread against a second post (R2)', () => {
  const journal: Journal = {
    old: { ts: at(-10 * HOUR), status: 'skipped' },
    recent: { ts: at(-1 * HOUR), status: 'skipped' },
    a: { ts: at(0), status: 'skipped' },
    b: { ts: at(0), status: 'failed', tries: 2 },
    later: { ts: at(30), status: 'posting' },
  };
  const soon = T0 + 1 * HOUR * 60_000;
  const late = T0 + 7 * HOUR * 60_000;

  const cases: Array<[what: string, cursor: { timestamp: string; id: string } | null, now: number, kept: string[]]> = [
    ['no cursor keeps all, however old', null, late, ['old', 'recent', 'a', 'b', 'later']],
    ['behind the cursor but young enough to be open: kept', { timestamp: at(0), id: 'a' }, soon, ['recent', 'a', 'b', 'later']],
    ['behind the cursor and old enough to be locked: gone', { timestamp: at(0), id: 'a' }, late, ['b', 'later']],
    ['the same instant spelled otherwise', { timestamp: new Date(T0).toISOString().replace('Z', '+00:00'), id: 'a' }, late, ['b', 'later']],
    ['after the cursor: kept however old', { timestamp: at(-11 * HOUR), id: 'z' }, late + 100 * HOUR * 60_000, ['old', 'recent', 'a', 'b', 'later']],
    ['everything behind the cursor and old, but a post that may exist', { timestamp: at(60), id: 'z' }, late, ['later']],
  ];
  it.each(cases)('%s', (_what, cursor, now, kept) => {
    expect(Object.keys(pruneJournal(journal, cursor, now)).sort()).toEqual([...kept].sort());
  });

  it.each([
    ['skipped', JOURNAL_RETENTION_MS],
    ['failed', JOURNAL_RETENTION_MS],
    ['posted', POSTED_RETENTION_MS],
    ['unknown', POSTED_RETENTION_MS],
    ['posting', POSTED_RETENTION_MS],
  ] as const)('keeps a %s entry behind the cursor until its retention has passed', (status, retention) => {
    const entry = { x: { ts: at(-HOUR), status } };
    const cursor = { timestamp: at(0), id: 'z' };
    expect(pruneJournal(entry, cursor, T0 - 60 * 60_000 + retention - 1)).toEqual(entry);
    expect(pruneJournal(entry, cursor, T0 - 60 * 60_000 + retention + 1)).toEqual({});
  });

  it('keeps the newest 5000 entries at most', () => {
    const big: Journal = {};
    for (let i = 0; i < 5_100; i++) big[`t${i}`] = { ts: new Date(T0 + i * 1000).toISOString(), status: 'skipped' };
    const kept = pruneJournal(big, null, T0);
    expect(Object.keys(kept)).toHaveLength(5_000);
    expect(kept.t5099).toBeDefined();
    expect(kept.t99).toBeUndefined();
  });

  it('does not change its argument', () => {
    const copy = structuredClone(journal);
    pruneJournal(journal, { timestamp: at(60), id: 'z' }, late);
    expect(journal).toEqual(copy);
  });
});

describe('isHandled', () => {
  it.each([
    [undefined, false],
    ['posted', true],
    ['skipped', true],
    ['failed', false],
    ['posting', false],
  ] as const)('%s → %s', (status, handled) => {
    expect(isHandled(status ? { ts: at(0), status } : undefined)).toBe(handled);
  });
});

describe('journalOf', () => {
  it('is a copy: changing it does not change the state', () => {
    const state = { apiKey: 'k', agentName: 'n', cursor: null, baseUrl: 'https://x', journal: { a: { ts: at(0), status: 'posted' } } } as State;
    const journal = journalOf(state);
    journal.b = { ts: at(1), status: 'skipped' };
    expect(Object.keys(state.journal!)).toEqual(['a']);
    expect(journalOf({ ...state, journal: undefined })).toEqual({});
  });

  it('gives up after a bounded number of tries', () => {
    expect(MAX_TRIES).toBeGreaterThan(1);
    expect(MAX_TRIES).toBeLessThan(20);
  });
});
