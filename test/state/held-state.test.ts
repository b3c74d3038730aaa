import { describe, expect, it } from 'vitest';
import { holdState } from '../../src/state/held-state.js';
import type { State } from '../../src/state/schema.js';
import { serializeState, type StateStore } from '../../src/state/store.js';

const START: State = {
  apiKey: 'hive_0123456789abcdefSECRETKEY',
  agentName: 'bot',
  cursor: { timestamp: '2025-06-01T12:00:00.000Z', id: 't-1' },
  baseUrl: 'https://svc.example.test',
};

/** A store that keeps the written texts: the last one is "the disk". */
function recordingStore(): StateStore & { writes: string[] } {
  const writes: string[] = [];
  return {
    writes,
    dir: '/nowhere',
    file: '/nowhere/state.json',
    read: () => undefined,
    write: (state, text = serializeState(state)) => void writes.push(text),
    backup: () => '',
    prepareDir: () => undefined,
    reserve: () => ({ commit: () => undefined, abandon: () => undefined }),
  };
}

const posting = new Map([['a', { ts: '2025-06-01T12:05:00.000Z', status: 'failed' as const, tries: 1 }]]);

describe('holdState', () => {
  it('writes a change once, and not a second time when nothing changed', () => {
    const store = recordingStore();
    const held = holdState(store, START);
    held.update({ cursor: { timestamp: '2025-06-01T12:10:00.000Z', id: 't-2' } });
    held.update({ cursor: { timestamp: '2025-06-01T12:10:00.000Z', id: 't-2' } });
    expect(store.writes).toHaveLength(1);
    expect(JSON.parse(store.writes[0]!).cursor.id).toBe('t-2');
    expect(held.current.cursor!.id).toBe('t-2');
  });

  it('an update equal to the start state is written when an earlier write changed the disk', () => {
    // The regression: a run's "posting" mark went to disk, its outcome put the journal back where it was
    // at the start, and that last write was skipped, leaving "posting" to be read as an interrupted run.
    const store = recordingStore();
    const held = holdState(store, { ...START, journal: posting });
    held.update({
      journal: new Map([['a', { ts: '2025-06-01T12:05:00.000Z', status: 'posting' as const, tries: 1 }]]),
    });
    held.update({ journal: posting });
    expect(store.writes.map((text) => JSON.parse(text).journal.a.status)).toEqual(['posting', 'failed']);
  });

  it('a run that changed nothing leaves the file as it found it, even with an empty journal', () => {
    const store = recordingStore();
    const held = holdState(store, START);
    held.update({ journal: new Map(), rateLimitedUntil: undefined });
    expect(store.writes).toEqual([]);
  });

  it('a journal changed in place and handed over again is written each time: the poll ledger does that', () => {
    const store = recordingStore();
    const journal: NonNullable<State['journal']> = new Map(posting);
    const held = holdState(store, START);
    held.update({ journal });
    journal.set('b', { ts: '2025-06-01T12:06:00.000Z', status: 'posting', tries: 0 });
    held.update({ journal });
    expect(store.writes.map((text) => Object.keys(JSON.parse(text).journal))).toEqual([['a'], ['a', 'b']]);
  });

  it('an update that repeats plain values (no pause, the same name) serializes and writes nothing', () => {
    const store = recordingStore();
    const held = holdState(store, START);
    held.update({ rateLimitedUntil: undefined, agentName: 'bot' });
    expect(store.writes).toEqual([]);
  });

  it('a dry run never writes, but its state moves on', () => {
    const store = recordingStore();
    const held = holdState(store, START, { dryRun: true });
    held.update({ rateLimitedUntil: '2025-06-01T13:00:00.000Z' });
    expect(store.writes).toEqual([]);
    expect(held.current.rateLimitedUntil).toBe('2025-06-01T13:00:00.000Z');
  });
});
