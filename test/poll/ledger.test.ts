import { describe, expect, it } from 'vitest';
import { EXIT } from '../../src/errors.js';
import { PollLedger } from '../../src/poll/ledger.js';
import type { State } from '../../src/state/schema.js';
import { thread } from '../support/threads.js';

const STATE: State = { apiKey: 'hive_x', agentName: 'a', baseUrl: 'http://127.0.0.1:1', cursor: { timestamp: '2025-06-01T11:00:00.000Z', id: 'c' } };
const OLD = thread('old', '2025-06-01T12:00:00.000Z');
const NEW = thread('new', '2025-06-01T12:05:00.000Z');

describe('PollLedger', () => {
  it('records each outcome in the report and the journal', () => {
    const ledger = new PollLedger(STATE);
    ledger.apply({ kind: 'posted', conviction: 1.2, text: 't', predictionId: 'p1' }, NEW, 0);
    ledger.apply({ kind: 'skipped', reason: 'locked' }, OLD, 0);
    expect(ledger.report.posted).toEqual([{ threadId: 'new', conviction: 1.2, text: 't', predictionId: 'p1' }]);
    expect(ledger.report.skipped).toEqual([{ threadId: 'old', reason: 'locked' }]);
    expect(ledger.journal).toEqual({ new: { ts: NEW.timestamp, status: 'posted' }, old: { ts: OLD.timestamp, status: 'skipped', reason: 'locked' } });
    expect(ledger.cursor()).toEqual({ timestamp: NEW.timestamp, id: 'new' });
    expect(ledger.exitCode).toBe(EXIT.ok);
  });

  it('keeps a temporary failure due: the cursor stops before it, and its tries count up', () => {
    const ledger = new PollLedger(STATE);
    ledger.apply({ kind: 'posted', conviction: 1, text: 't', predictionId: null }, NEW, 0);
    ledger.apply({ kind: 'failed', error: '503', retry: true, exitCode: EXIT.temporary }, OLD, 1);
    expect(ledger.journal.old).toEqual({ ts: OLD.timestamp, status: 'failed', tries: 2 });
    expect(ledger.cursor()).toEqual(STATE.cursor);
    expect(ledger.exitCode).toBe(EXIT.temporary);
  });

  it('gives a thread up after the last try, with a reason', () => {
    const ledger = new PollLedger(STATE);
    ledger.apply({ kind: 'failed', error: '503', retry: true, exitCode: EXIT.temporary }, OLD, 4);
    expect(ledger.journal.old).toMatchObject({ status: 'skipped', reason: 'given up after 5 temporary failures' });
    expect(ledger.cursor()).toEqual({ timestamp: OLD.timestamp, id: 'old' });
  });

  it('an outcome that may have landed is done with, never due again', () => {
    const ledger = new PollLedger(STATE);
    ledger.apply({ kind: 'unknown', error: 'timeout; not posted again' }, OLD, 0);
    expect(ledger.journal.old).toMatchObject({ status: 'unknown' });
    expect(ledger.cursor()).toEqual({ timestamp: OLD.timestamp, id: 'old' });
    expect(ledger.exitCode).toBe(EXIT.temporary);
  });

  it('a stop keeps the thread due and remembers the first error only', () => {
    const ledger = new PollLedger(STATE);
    const first = new Error('401');
    ledger.apply({ kind: 'stop', error: first }, OLD, 0);
    ledger.apply({ kind: 'stop', error: new Error('429') }, NEW, 0);
    expect(ledger.stop).toBe(first);
    expect(ledger.cursor()).toEqual(STATE.cursor);
  });

  it('marks a thread "posting" with its tries, before the POST', () => {
    const ledger = new PollLedger(STATE);
    ledger.posting(OLD, 0);
    ledger.posting(NEW, 3);
    expect(ledger.journal).toEqual({ old: { ts: OLD.timestamp, status: 'posting' }, new: { ts: NEW.timestamp, status: 'posting', tries: 3 } });
  });

  it('a failure that waiting cannot fix outranks a temporary one in the exit code', () => {
    const ledger = new PollLedger(STATE);
    ledger.apply({ kind: 'failed', error: '400', retry: false, exitCode: EXIT.unexpected }, OLD, 0);
    ledger.apply({ kind: 'failed', error: '503', retry: true, exitCode: EXIT.temporary }, NEW, 0);
    expect(ledger.exitCode).toBe(EXIT.unexpected);
  });

  it('a malformed listing never overwrites what the journal knows (R2)', () => {
    const ledger = new PollLedger({ ...STATE, journal: { bad: { ts: OLD.timestamp, status: 'unknown' } } });
    ledger.malformed({ id: 'bad', timestamp: OLD.timestamp, reason: 'malformed thread' });
    expect(ledger.journal.bad).toEqual({ ts: OLD.timestamp, status: 'unknown' });
    expect(ledger.report.skipped).toEqual([]);
  });

  it('skips a malformed thread once, and lets the cursor pass it', () => {
    const ledger = new PollLedger(STATE);
    const bad = { id: 'bad', timestamp: OLD.timestamp, reason: 'malformed thread (text: missing)' };
    ledger.malformed(bad);
    ledger.malformed(bad);
    expect(ledger.report.skipped).toHaveLength(1);
    expect(ledger.cursor()).toEqual({ timestamp: OLD.timestamp, id: 'bad' });
  });
});
