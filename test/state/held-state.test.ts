import { describe, expect, it } from 'vitest';
import { holdState } from '../../src/state/held-state.js';
import type { Journal, State } from '../../src/state/schema.js';
import { parseState, serializeState, type StateStore } from '../../src/state/state-store.js';
import { LockLostError } from '../../src/errors.js';

const START: State = {
  apiKey: 'hive_0123456789abcdefSECRETKEY',
  agentName: 'bot',
  cursor: { timestamp: '2025-06-01T12:00:00.000Z', id: 't-1' },
  baseUrl: 'https://svc.example.test',
};

/** A store that keeps the written texts: the last one is "the disk", unless something wrote behind the run. */
function recordingStore(): StateStore & { writes: string[]; behind(state: State): void } {
  const writes: string[] = [];
  let disk: string | undefined;
  let version = 0;
  return {
    writes,
    behind(state) {
      disk = serializeState(state);
      version += 1;
    },
    dir: '/nowhere',
    file: '/nowhere/state.json',
    read: () => (disk === undefined ? undefined : parseState(disk, '/nowhere/state.json')),
    write: (state, text = serializeState(state), fence) => {
      fence?.();
      writes.push(text);
      disk = text;
      version += 1;
      fence?.();
    },
    stamp: () => String(version),
    backup: () => '',
    prepareDir: () => undefined,
    reserve: () => ({ commit: () => undefined, abandon: () => undefined }),
  };
}

const lock = { confirm: () => undefined };

const posting = new Map([['a', { ts: '2025-06-01T12:05:00.000Z', status: 'failed' as const, tries: 1 }]]);

describe('holdState', () => {
  it('writes a change once, and not a second time when nothing changed', () => {
    const store = recordingStore();
    const held = holdState(store, START, lock);
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
    const held = holdState(store, { ...START, journal: posting }, lock);
    held.update({
      journal: new Map([['a', { ts: '2025-06-01T12:05:00.000Z', status: 'posting' as const, tries: 1 }]]),
    });
    held.update({ journal: posting });
    expect(store.writes.map((text) => JSON.parse(text).journal.a.status)).toEqual(['posting', 'failed']);
  });

  it('a run that changed nothing leaves the file as it found it, even with an empty journal', () => {
    const store = recordingStore();
    const held = holdState(store, START, lock);
    held.update({ journal: new Map(), rateLimitedUntil: undefined });
    expect(store.writes).toEqual([]);
  });

  it('a journal changed in place and handed over again is written each time: the poll ledger does that', () => {
    const store = recordingStore();
    const journal: NonNullable<State['journal']> = new Map(posting);
    const held = holdState(store, START, lock);
    held.update({ journal });
    journal.set('b', { ts: '2025-06-01T12:06:00.000Z', status: 'posting', tries: 0 });
    held.update({ journal });
    expect(store.writes.map((text) => Object.keys(JSON.parse(text).journal))).toEqual([['a'], ['a', 'b']]);
  });

  it('an update that repeats plain values (no pause, the same name) serializes and writes nothing', () => {
    const store = recordingStore();
    const held = holdState(store, START, lock);
    held.update({ rateLimitedUntil: undefined, agentName: 'bot' });
    expect(store.writes).toEqual([]);
  });

  it('a dry run never writes, but its state moves on', () => {
    const store = recordingStore();
    const held = holdState(store, START, lock, { dryRun: true });
    held.update({ rateLimitedUntil: '2025-06-01T13:00:00.000Z' });
    expect(store.writes).toEqual([]);
    expect(held.current.rateLimitedUntil).toBe('2025-06-01T13:00:00.000Z');
  });

  it('every write is fenced by the lock, before and after: once the lock is lost, nothing more is written (one-writer)', () => {
    const store = recordingStore();
    let confirms = 0;
    let lost = false;
    const fenced = {
      confirm() {
        confirms += 1;
        if (lost) throw new LockLostError('taken over');
      },
    };
    const held = holdState(store, START, fenced);
    held.update({ cursor: { timestamp: '2025-06-01T12:10:00.000Z', id: 't-2' } });
    expect(confirms).toBe(2);
    lost = true;
    expect(() => held.update({ cursor: { timestamp: '2025-06-01T12:20:00.000Z', id: 't-3' } })).toThrow(LockLostError);
    expect(store.writes.map((text) => JSON.parse(text).cursor.id)).toEqual(['t-2']);
  });

  it('a file changed behind the run keeps its later cursor, its pause and its posts: the cursor never moves back (never-twice)', () => {
    const store = recordingStore();
    store.behind(START);
    const held = holdState(store, START, lock);
    const mine: Journal = new Map([['mine', { ts: '2025-06-01T12:05:00.000Z', status: 'posted' }]]);
    held.update({ journal: mine });
    // Another writer, not holding the lock: a later cursor, a pause, two posts (one of them a thread this run failed).
    store.behind({
      ...START,
      cursor: { timestamp: '2025-06-01T12:30:00.000Z', id: 't-9' },
      rateLimitedUntil: '2025-06-01T13:00:00.000Z',
      journal: new Map([
        ['theirs', { ts: '2025-06-01T12:20:00.000Z', status: 'posted' as const }],
        ['failed', { ts: '2025-06-01T12:21:00.000Z', status: 'unknown' as const }],
      ]),
    });
    const journal: Journal = new Map([...mine, ['failed', { ts: '2025-06-01T12:21:00.000Z', status: 'failed' }]]);
    held.update({ cursor: { timestamp: '2025-06-01T12:10:00.000Z', id: 't-2' }, journal });
    // And again, with the journal as the run knows it: what was kept from the disk stays.
    held.update({ journal: new Map(journal) });
    for (const text of store.writes.slice(1)) {
      const written = JSON.parse(text);
      expect(written.cursor.id).toBe('t-9');
      expect(written.rateLimitedUntil).toBe('2025-06-01T13:00:00.000Z');
      expect(written.journal).toMatchObject({
        mine: { status: 'posted' },
        theirs: { status: 'posted' },
        failed: { status: 'unknown' },
      });
    }
    expect(store.writes).toHaveLength(2);
    // The journal handed in is the caller's: it is not changed.
    expect(journal.get('failed')?.status).toBe('failed');
  });
  it('a "posting" mark of this run, found on a changed disk, does not undo its own later failed or skipped (never-twice)', () => {
    const store = recordingStore();
    store.behind(START);
    const held = holdState(store, START, lock);
    const marked = { ts: '2025-06-01T12:05:00.000Z', status: 'posting' as const, at: '2025-06-01T12:06:00.000Z' };
    held.update({
      journal: new Map([
        ['x', marked],
        ['y', { ...marked }],
      ]),
    });
    // Someone wrote behind the run, copying its marks: the file changed, so the run keeps what it says.
    store.behind({
      ...START,
      journal: new Map([
        ['x', { ...marked }],
        ['y', { ...marked }],
      ]),
    });
    // Both POSTs certainly did not land: x failed, y was skipped (a 409 is a skip, a 400 a failure).
    const settled = { ts: marked.ts, at: '2025-06-01T12:07:00.000Z' };
    held.update({
      journal: new Map([
        ['x', { ...settled, status: 'failed' as const, tries: 1 }],
        ['y', { ...settled, status: 'skipped' as const, reason: 'closed' }],
      ]),
    });
    const written = JSON.parse(store.writes.at(-1) ?? '{}');
    expect(written.journal.x.status).toBe('failed');
    expect(written.journal.y.status).toBe('skipped');
  });
});
