import { describe, expect, it } from 'vitest';
import { EXIT } from '../../src/errors.js';
import { PollLedger } from '../../src/poll/ledger.js';
import type { State } from '../../src/state/schema.js';
import { thread } from '../support/threads.js';

const STATE: State = {
  apiKey: 'hive_x',
  agentName: 'a',
  baseUrl: 'http://127.0.0.1:1',
  cursor: { timestamp: '2025-06-01T11:00:00.000Z', id: 'c' },
};
const OLD = thread('old', '2025-06-01T12:00:00.000Z');
const NEW = thread('new', '2025-06-01T12:05:00.000Z');
const NOW_ISO = '2025-06-01T12:10:00.000Z';
const NOW = Date.parse(NOW_ISO);

describe('PollLedger', () => {
  it('records each outcome in the report and the journal', () => {
    const ledger = new PollLedger(STATE, () => NOW);
    ledger.apply({ kind: 'posted', conviction: 1.2, text: 't', predictionId: 'p1' }, NEW, 0);
    ledger.apply({ kind: 'skipped', skipKind: 'locked', reason: 'locked' }, OLD, 0);
    expect(ledger.report.posted).toEqual([{ threadId: 'new', conviction: 1.2, text: 't', predictionId: 'p1' }]);
    expect(ledger.report.skipped).toEqual([{ threadId: 'old', reason: 'locked', skipKind: 'locked' }]);
    expect(Object.fromEntries(ledger.journal)).toEqual({
      new: { ts: NEW.timestamp, status: 'posted', at: NOW_ISO },
      old: { ts: OLD.timestamp, status: 'skipped', reason: 'locked' },
    });
    expect(ledger.cursor(undefined)).toEqual({ timestamp: NEW.timestamp, id: 'new' });
    expect(ledger.exitCode).toBe(EXIT.ok);
  });

  it('keeps a temporary failure due: the cursor stops before it, and its tries count up', () => {
    const ledger = new PollLedger(STATE, () => NOW);
    ledger.apply({ kind: 'posted', conviction: 1, text: 't', predictionId: null }, NEW, 0);
    ledger.apply({ kind: 'failed', error: '503', retry: true, exitCode: EXIT.temporary }, OLD, 1);
    expect(ledger.journal.get('old')).toEqual({ ts: OLD.timestamp, status: 'failed', tries: 2 });
    expect(ledger.cursor(undefined)).toEqual(STATE.cursor);
    expect(ledger.exitCode).toBe(EXIT.temporary);
  });

  it('gives a thread up after the last try, with a reason', () => {
    const ledger = new PollLedger(STATE, () => NOW);
    ledger.apply({ kind: 'failed', error: '503', retry: true, exitCode: EXIT.temporary }, OLD, 4);
    expect(ledger.journal.get('old')).toMatchObject({
      status: 'skipped',
      reason: 'given up after 5 temporary failures',
    });
    expect(ledger.cursor(undefined)).toEqual({ timestamp: OLD.timestamp, id: 'old' });
  });

  it('an outcome that may have landed is done with, never due again', () => {
    const ledger = new PollLedger(STATE, () => NOW);
    ledger.apply({ kind: 'unknown', error: 'timeout; not posted again' }, OLD, 0);
    expect(ledger.journal.get('old')).toEqual({
      ts: OLD.timestamp,
      status: 'unknown',
      reason: 'timeout; not posted again',
      at: NOW_ISO,
    });
    expect(ledger.cursor(undefined)).toEqual({ timestamp: OLD.timestamp, id: 'old' });
    expect(ledger.exitCode).toBe(EXIT.temporary);
  });

  it('a stop keeps the thread due and remembers the first error only', () => {
    const ledger = new PollLedger(STATE, () => NOW);
    const first = new Error('401');
    ledger.apply({ kind: 'stop', error: first }, OLD, 0);
    ledger.apply({ kind: 'stop', error: new Error('429') }, NEW, 0);
    expect(ledger.stop).toBe(first);
    expect(ledger.cursor(undefined)).toEqual(STATE.cursor);
  });

  it('a failure that waiting cannot fix outranks a temporary one in the exit code', () => {
    const ledger = new PollLedger(STATE, () => NOW);
    ledger.apply({ kind: 'failed', error: '400', retry: false, exitCode: EXIT.unexpected }, OLD, 0);
    ledger.apply({ kind: 'failed', error: '503', retry: true, exitCode: EXIT.temporary }, NEW, 0);
    expect(ledger.exitCode).toBe(EXIT.unexpected);
  });

  it('a malformed listing never overwrites what the journal knows (never-twice)', () => {
    const ledger = new PollLedger(
      { ...STATE, journal: new Map([['bad', { ts: OLD.timestamp, status: 'unknown' as const }]]) },
      () => NOW,
    );
    ledger.malformed({ id: 'bad', timestamp: OLD.timestamp, reason: 'malformed thread' });
    expect(ledger.journal.get('bad')).toEqual({ ts: OLD.timestamp, status: 'unknown' });
    expect(ledger.report.skipped).toEqual([]);
  });

  it('skips a malformed thread once, and lets the cursor pass it', () => {
    const ledger = new PollLedger(STATE, () => NOW);
    const bad = { id: 'bad', timestamp: OLD.timestamp, reason: 'malformed thread (text: missing)' };
    ledger.malformed(bad);
    ledger.malformed(bad);
    expect(ledger.report.skipped).toHaveLength(1);
    expect(ledger.cursor(undefined)).toEqual({ timestamp: OLD.timestamp, id: 'bad' });
  });

  it('the cursor never passes what the walk has seen, nor moves onto a thread dated in the future', () => {
    const ledger = new PollLedger(STATE, () => NOW);
    const future = thread('future', '2099-01-01T00:00:00.000Z');
    ledger.apply({ kind: 'skipped', skipKind: 'locked', reason: 'locked' }, OLD, 0);
    ledger.apply({ kind: 'posted', conviction: 1, text: 't', predictionId: null }, NEW, 0);
    ledger.apply({ kind: 'posted', conviction: 1, text: 't', predictionId: null }, future, 0);
    expect(ledger.cursor({ timestamp: OLD.timestamp, id: 'old' })).toEqual({ timestamp: OLD.timestamp, id: 'old' });
    expect(ledger.cursor(undefined)).toEqual({ timestamp: NEW.timestamp, id: 'new' });
    expect(ledger.journal.get('future')).toMatchObject({ status: 'posted' });
  });
});
