import { describe, expect, it } from 'vitest';
import { type Fate, HISTORY_KIND, JOURNAL_STATUSES, TALLY } from '../../src/domain/fate.js';
import { EXIT } from '../../src/errors.js';
import { parseRecord } from '../../src/history/entry.js';
import { RunRecorder } from '../../src/history/recorder.js';
import { PollLedger } from '../../src/poll/ledger.js';
import { fateOf, type Outcome } from '../../src/posting/outcome.js';
import { parseState } from '../../src/state/state-store.js';
import { thread } from '../support/threads.js';
import { T0 } from '../support/timing.js';

// One set of words for what became of a thread. Where a format others read keeps an older word
// (history.jsonl, `poll --json`, a run's summary), the mapping is in src/domain/fate.ts, and pinned here.

const FATES: Fate[] = ['posted', 'skipped', 'failed', 'unknown'];

describe("the vocabulary of a thread's fate", () => {
  it('history.jsonl keeps post, skip and fail; the report and the run summary count posted, skipped, failed', () => {
    expect(HISTORY_KIND).toEqual({ posted: 'post', skipped: 'skip', failed: 'fail', unknown: 'fail' });
    expect(TALLY).toEqual({ posted: 'posted', skipped: 'skipped', failed: 'failed', unknown: 'failed' });
  });

  it('the journal writes every fate as it is, and the mark before the POST', () => {
    expect([...JOURNAL_STATUSES].sort()).toEqual([...FATES, 'posting'].sort());
  });

  it('every outcome has a fate; a stop is a failure that leaves the thread due', () => {
    const outcomes: Outcome[] = [
      { kind: 'posted', conviction: 1, text: 't', predictionId: null },
      { kind: 'skipped', skipKind: 'locked', reason: 'locked' },
      { kind: 'failed', error: '503', retry: true, exitCode: EXIT.temporary },
      { kind: 'unknown', error: 'timeout' },
      { kind: 'stop', error: new Error('401') },
    ];
    expect(outcomes.map(fateOf)).toEqual(['posted', 'skipped', 'failed', 'unknown', 'failed']);
  });

  it('one outcome of each kind: its word in the journal, the report, the history and the summary', () => {
    const recorder = new RunRecorder('poll', () => T0);
    const ledger = new PollLedger(
      { apiKey: 'hive_x', agentName: 'a', baseUrl: 'http://127.0.0.1:1', cursor: null },
      () => T0,
      recorder,
    );
    const at = (n: number) => thread(`t${n}`, `2025-06-01T11:0${n}:00.000Z`);
    ledger.apply({ kind: 'posted', conviction: 1, text: 't', predictionId: 'p' }, at(1), 0);
    ledger.apply({ kind: 'skipped', skipKind: 'below-threshold', reason: 'no signal' }, at(2), 0);
    ledger.apply({ kind: 'failed', error: '503', retry: true, exitCode: EXIT.temporary }, at(3), 0);
    ledger.apply({ kind: 'unknown', error: 'timeout' }, at(4), 0);
    ledger.apply({ kind: 'stop', error: new Error('401') }, at(5), 0);
    expect([...ledger.journal].map(([id, entry]) => [id, entry.status])).toEqual([
      ['t1', 'posted'],
      ['t2', 'skipped'],
      ['t3', 'failed'],
      ['t4', 'unknown'],
      ['t5', 'failed'],
    ]);
    const { report } = ledger;
    expect([report.posted, report.skipped, report.failed].map((list) => list.map((line) => line.threadId))).toEqual([
      ['t1'],
      ['t2'],
      ['t3', 't4', 't5'],
    ]);
    const records = recorder.finish(T0, EXIT.temporary);
    expect(records.map((record) => [record.threadId, record.kind])).toEqual([
      ['t1', 'post'],
      ['t2', 'skip'],
      ['t3', 'fail'],
      ['t4', 'fail'],
      ['t5', 'fail'],
      [undefined, 'run'],
    ]);
    expect(records.at(-1)?.summary).toMatchObject({ posted: 1, skipped: 1, failed: 3 });
  });

  it('files written by earlier versions still read: every journal status, every history kind', () => {
    const journal = Object.fromEntries(
      ['posting', 'posted', 'unknown', 'skipped', 'failed'].map((status, i) => [
        `t${i}`,
        { ts: '2025-06-01T12:00:00.000Z', status },
      ]),
    );
    const state = parseState(
      JSON.stringify({ version: 1, apiKey: 'hive_x', agentName: 'a', cursor: null, baseUrl: 'http://x', journal }),
      '/nowhere/state.json',
    );
    expect([...(state.journal?.values() ?? [])].map((entry) => entry.status)).toEqual([
      'posting',
      'posted',
      'unknown',
      'skipped',
      'failed',
    ]);
    for (const kind of ['post', 'skip', 'fail'])
      expect(parseRecord({ ts: '2025-06-01T12:00:00.000Z', kind, threadId: 't' })).toMatchObject({ kind });
    expect(parseRecord({ ts: '2025-06-01T12:00:00.000Z', kind: 'posted', threadId: 't' })).toBeUndefined();
  });
});
