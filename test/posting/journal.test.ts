import { describe, expect, it } from 'vitest';
import {
  aheadOf,
  isHandled,
  journalOf,
  MAX_POSTED_BEHIND,
  POSTED_RETENTION_MS,
  pruneJournal,
  withEntry,
  type Journal,
} from '../../src/posting/journal.js';
import type { JournalEntry, State } from '../../src/state/schema.js';

const T0 = Date.parse('2025-06-01T12:00:00.000Z');
const at = (minutes: number) => new Date(T0 + minutes * 60_000).toISOString();
const HOUR = 60;
const DAY = 24 * HOUR;
const journalOfEntries = (entries: Record<string, JournalEntry>): Journal => new Map(Object.entries(entries));
const keys = (journal: Journal) => [...journal.keys()].sort();

describe('pruneJournal: keep what still guards a thread against a second post (never-twice)', () => {
  const journal = journalOfEntries({
    old: { ts: at(-10 * HOUR), status: 'skipped' },
    recent: { ts: at(-1 * HOUR), status: 'skipped' },
    a: { ts: at(0), status: 'skipped' },
    b: { ts: at(0), status: 'failed', tries: 2 },
    posted: { ts: at(-2 * HOUR), status: 'posted', at: at(-2 * HOUR) },
    later: { ts: at(30), status: 'posting' },
  });
  const late = T0 + 7 * HOUR * 60_000;

  const cases: Array<[what: string, cursor: { timestamp: string; id: string } | null, now: number, kept: string[]]> = [
    [
      'no cursor keeps all, however old',
      null,
      late + 100 * DAY * 60_000,
      ['old', 'recent', 'a', 'b', 'posted', 'later'],
    ],
    [
      'behind the cursor, poll never looks again: only posts stay',
      { timestamp: at(0), id: 'a' },
      T0,
      ['a', 'b', 'posted', 'later'],
    ],
    [
      'at the cursor instant, spelled otherwise: kept (ties are the journal’s)',
      { timestamp: new Date(T0).toISOString().replace('Z', '+00:00'), id: 'a' },
      late,
      ['a', 'b', 'posted', 'later'],
    ],
    [
      'after the cursor: kept however old',
      { timestamp: at(-11 * HOUR), id: 'z' },
      late + 100 * DAY * 60_000,
      ['old', 'recent', 'a', 'b', 'posted', 'later'],
    ],
    [
      'everything behind the cursor, a week after the post',
      { timestamp: at(60), id: 'z' },
      T0 - 2 * HOUR * 60_000 + POSTED_RETENTION_MS + 1,
      ['later'],
    ],
  ];
  it.each(cases)('%s', (_what, cursor, now, kept) => {
    expect(keys(pruneJournal(journal, cursor, now))).toEqual([...kept].sort());
  });

  it.each(['posted', 'unknown', 'posting'] as const)(
    'keeps a %s entry behind the cursor for a week from when it was written, not from its thread',
    (status) => {
      // A thread ten days old, posted on an hour ago: still guarded (the thread's age once dropped it at once).
      const entry = journalOfEntries({ x: { ts: at(-10 * DAY), status, at: at(-HOUR) } });
      const cursor = { timestamp: at(0), id: 'z' };
      expect(keys(pruneJournal(entry, cursor, T0))).toEqual(['x']);
      expect(keys(pruneJournal(entry, cursor, T0 - HOUR * 60_000 + POSTED_RETENTION_MS - 1))).toEqual(['x']);
      expect(keys(pruneJournal(entry, cursor, T0 - HOUR * 60_000 + POSTED_RETENTION_MS + 1))).toEqual([]);
    },
  );

  it('an entry from before `at` existed counts from its thread', () => {
    const entry = journalOfEntries({ x: { ts: at(-HOUR), status: 'posted' } });
    const cursor = { timestamp: at(0), id: 'z' };
    expect(keys(pruneJournal(entry, cursor, T0 - HOUR * 60_000 + POSTED_RETENTION_MS - 1))).toEqual(['x']);
    expect(keys(pruneJournal(entry, cursor, T0 - HOUR * 60_000 + POSTED_RETENTION_MS + 1))).toEqual([]);
  });

  it('never drops an entry ahead of the cursor, however many; behind it keeps the newest posts only', () => {
    const big: Journal = new Map();
    for (let i = 0; i < 12_000; i++) big.set(`a${i}`, { ts: at(10 + i), status: 'posted', at: at(10 + i) });
    for (let i = 0; i < MAX_POSTED_BEHIND + 50; i++) big.set(`b${i}`, { ts: at(-i), status: 'posted', at: at(-i) });
    const kept = pruneJournal(big, { timestamp: at(5), id: 'c' }, T0);
    expect(kept.size).toBe(12_000 + MAX_POSTED_BEHIND);
    expect(kept.has('a0')).toBe(true);
    expect(kept.has('b0')).toBe(true);
    expect(kept.has(`b${MAX_POSTED_BEHIND + 49}`)).toBe(false);
  });

  it('does not change its argument', () => {
    const copy = structuredClone(journal);
    pruneJournal(journal, { timestamp: at(60), id: 'z' }, late);
    expect(journal).toEqual(copy);
  });
});

describe('aheadOf', () => {
  it('counts the entries at or after the cursor’s instant', () => {
    const journal = journalOfEntries({
      a: { ts: at(-1), status: 'skipped' },
      b: { ts: at(0), status: 'skipped' },
      c: { ts: at(1), status: 'posted' },
    });
    expect(aheadOf(journal, { timestamp: at(0), id: 'b' })).toBe(2);
    expect(aheadOf(journal, null)).toBe(3);
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

describe('journalOf and withEntry', () => {
  it('are copies: changing them does not change the state', () => {
    const state = {
      apiKey: 'k',
      agentName: 'n',
      cursor: null,
      baseUrl: 'https://x',
      journal: journalOfEntries({ a: { ts: at(0), status: 'posted' } }),
    } as State;
    const journal = journalOf(state);
    journal.set('b', { ts: at(1), status: 'skipped' });
    expect(keys(withEntry(state.journal, 'c', { ts: at(2), status: 'posting' }))).toEqual(['a', 'c']);
    expect(keys(withEntry(state.journal, 'a', undefined))).toEqual([]);
    expect(keys(state.journal!)).toEqual(['a']);
    expect(journalOf({ ...state, journal: undefined }).size).toBe(0);
  });

  it('keep an id such as __proto__ as an entry like any other', () => {
    const journal = withEntry(undefined, '__proto__', { ts: at(0), status: 'posted' });
    expect(isHandled(journal.get('__proto__'))).toBe(true);
    expect(JSON.parse(JSON.stringify(Object.fromEntries(journal)))).toEqual(
      JSON.parse('{"__proto__": {"ts": "2025-06-01T12:00:00.000Z", "status": "posted"}}'),
    );
  });
});
