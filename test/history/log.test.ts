import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { appendHistory, HISTORY_LIMIT_BYTES, HISTORY_READ_BYTES, readHistory } from '../../src/history/log.js';
import { linesBackward } from '../../src/history/read-back.js';
import type { HistoryEntry } from '../../src/history/entry.js';
import { RunRecorder } from '../../src/history/recorder.js';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-history-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const T0 = Date.parse('2026-11-01T12:00:00.000Z');
const record = (i: number): HistoryEntry => ({
  ts: new Date(T0 + i * 1000).toISOString(),
  kind: 'skip',
  threadId: `t${i}`,
  reason: 'quiet',
});

describe('the history file', () => {
  it('appends whole lines, mode 600, and reads them back newest first', () => {
    const warnings: string[] = [];
    appendHistory(dir, [record(1), record(2)], (m) => warnings.push(m));
    appendHistory(dir, [record(3)], (m) => warnings.push(m));
    expect(warnings).toEqual([]);
    expect(fs.statSync(path.join(dir, 'history.jsonl')).mode & 0o777).toBe(0o600);
    expect(readHistory(dir)).toEqual({ records: [record(3), record(2), record(1)], unreadable: 0, tooLarge: [] });
  });

  it('writes nothing for no records, and reads nothing from no file', () => {
    appendHistory(dir, [], () => undefined);
    expect(fs.existsSync(path.join(dir, 'history.jsonl'))).toBe(false);
    expect(readHistory(dir)).toEqual({ records: [], unreadable: 0, tooLarge: [] });
  });

  it('moves a full file aside before appending, replacing the one moved before', () => {
    fs.writeFileSync(path.join(dir, 'history.1.jsonl'), `${JSON.stringify(record(0))}\n`);
    fs.writeFileSync(
      path.join(dir, 'history.jsonl'),
      `${JSON.stringify(record(1))}\n`.repeat(Math.ceil(HISTORY_LIMIT_BYTES / 80)),
    );
    appendHistory(dir, [record(9)], () => undefined);
    const { records } = readHistory(dir);
    expect(records[0]).toEqual(record(9));
    expect(records.at(-1)).toEqual(record(1));
    expect(records.some((r) => r.threadId === 't0')).toBe(false);
  });

  it('skips and counts lines that are not records, and keeps fields a later version adds', () => {
    fs.writeFileSync(
      path.join(dir, 'history.jsonl'),
      [JSON.stringify(record(1)), '{"kind":"post"}', 'garbage', JSON.stringify({ ...record(2), extra: 1 }), ''].join(
        '\n',
      ),
    );
    const { records, unreadable } = readHistory(dir);
    expect(unreadable).toBe(2);
    expect(records).toEqual([{ ...record(2), extra: 1 }, record(1)]);
  });

  it('reads an alert line back, and skips one whose routes are not what an alert records', () => {
    const alert: HistoryEntry = {
      ts: new Date(T0).toISOString(),
      kind: 'alert',
      alert: { event: 'failing', routes: [{ route: 'webhook', ok: false, answer: 'HTTP 500' }] },
      reason: 'webhook: HTTP 500',
    };
    const bad = [
      { ts: alert.ts, kind: 'alert' },
      { ...alert, alert: { event: 'failing', routes: [{ route: 'webhook', ok: 'no', answer: 'HTTP 500' }] } },
      { ...alert, alert: { event: 1, routes: [] } },
    ];
    fs.writeFileSync(path.join(dir, 'history.jsonl'), `${[alert, ...bad].map((r) => JSON.stringify(r)).join('\n')}\n`);
    const { records, unreadable } = readHistory(dir);
    expect(records).toEqual([alert]);
    expect(unreadable).toBe(3);
  });

  it('reads only what is asked for: since (with room for runs that wrote out of order), a limit, a filter', () => {
    const lines = [1, 2, 3, 4, 5].map((i) => JSON.stringify(record(i * 600)));
    fs.writeFileSync(path.join(dir, 'history.jsonl'), `${lines.join('\n')}\n`);
    const ids = (query: Parameters<typeof readHistory>[1]) => readHistory(dir, query).records.map((r) => r.threadId);
    expect(ids({ since: T0 + 1800 * 1000 })).toEqual(['t3000', 't2400', 't1800']);
    expect(ids({ limit: 2 })).toEqual(['t3000', 't2400']);
    expect(ids({ keep: (r) => r.threadId === 't1200', limit: 1 })).toEqual(['t1200']);
  });

  it('of a file larger than the history grows, reads the newest part only, and says so', () => {
    const file = path.join(dir, 'history.jsonl');
    const fd = fs.openSync(file, 'w');
    fs.ftruncateSync(fd, HISTORY_READ_BYTES * 3);
    fs.writeSync(fd, `\n${JSON.stringify(record(1))}\n`, HISTORY_READ_BYTES * 3);
    fs.closeSync(fd);
    const read = readHistory(dir);
    expect(read.records).toEqual([record(1)]);
    expect(read.tooLarge).toEqual([{ file, bytes: HISTORY_READ_BYTES * 3 + JSON.stringify(record(1)).length + 2 }]);
  });

  it.each([
    ['a directory', (file: string) => fs.mkdirSync(file)],
    ['a symbolic link', (file: string) => fs.symlinkSync(path.join(dir, 'other'), file)],
  ])('is not read, nor appended to, when it is %s', (what, make) => {
    fs.writeFileSync(path.join(dir, 'other'), 'x\n');
    const file = path.join(dir, 'history.jsonl');
    make(file);
    expect(() => readHistory(dir)).toThrow(`${file} is not a regular file (${what})`);
    const warnings: string[] = [];
    appendHistory(dir, [record(1)], (m) => warnings.push(m));
    expect(warnings).toEqual([expect.stringContaining('(not a regular file)')]);
    expect(fs.readFileSync(path.join(dir, 'other'), 'utf8')).toBe('x\n');
  });

  it('says so through warn, and does not throw, when it cannot write', () => {
    const warnings: string[] = [];
    appendHistory(path.join(dir, 'missing', 'dir'), [record(1)], (m) => warnings.push(m));
    expect(warnings).toEqual([expect.stringMatching(/could not add to the history in .* \(ENOENT\)/)]);
  });
});

describe('reading a file backwards', () => {
  const backwards = (text: string, chunkBytes: number, maxBytes = 1e9, maxLineBytes = 4096) => {
    const file = path.join(dir, 'lines');
    fs.writeFileSync(file, text);
    const fd = fs.openSync(file, 'r');
    try {
      return [
        ...linesBackward(fd, fs.fstatSync(fd).size, {
          chunkBytes,
          maxBytes,
          maxLineBytes,
        }),
      ];
    } finally {
      fs.closeSync(fd);
    }
  };

  it.each([1, 2, 3, 7, 64])('gives the lines newest first whatever the chunk size (%i bytes)', (chunk) => {
    expect(backwards('one\ntwo\n\nthree é\nfour', chunk)).toEqual(['four', 'three é', 'two', 'one']);
    expect(backwards('\n\nonly\n', chunk)).toEqual(['only']);
    expect(backwards('', chunk)).toEqual([]);
  });

  it('gives what splitting the whole file gives, reversed, for any text and chunk size (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.string({ unit: 'grapheme' }), fc.constantFrom('', ' ', 'é€😀'))),
        fc.integer({ min: 1, max: 24 }),
        (parts, chunk) => {
          const text = parts.join('\n');
          const expected = text
            .split('\n')
            .filter((line) => line.trim() !== '')
            .reverse();
          expect(backwards(text, chunk)).toEqual(expected);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('gives a line too long to keep as undefined, and stops at maxBytes without a cut line', () => {
    expect(backwards(`a\n${'x'.repeat(50)}\nb\n`, 8, 1e9, 20)).toEqual(['b', undefined, 'a']);
    expect(backwards('first line\nsecond\nthird\n', 4, 14)).toEqual(['third', 'second']);
  });
});

describe('a run recorder', () => {
  it('keeps a line per post, skip and failure, counts locked threads, and sums the run up', () => {
    let now = T0;
    const recorder = new RunRecorder('poll', () => now);
    recorder.outcome(
      { id: 'a', cell: 'bitcoin' },
      { kind: 'posted', conviction: 1.2, text: 'up', predictionId: 'p', by: { analyzer: 'builtin', fallback: true } },
    );
    recorder.outcome(
      { id: 'e', cell: 'solana' },
      { kind: 'skipped', skipKind: 'weak-evidence', reason: 'weak', by: { analyzer: 'llm' } },
    );
    recorder.outcome({ id: 'b', cell: 'solana' }, { kind: 'skipped', skipKind: 'locked', reason: 'locked' });
    recorder.outcome({ id: 'c', cell: 'solana' }, { kind: 'skipped', skipKind: 'no-evidence', reason: 'no evidence' });
    recorder.outcome({ id: 'd', cell: 'pepe' }, { kind: 'stop', error: new Error('401') });
    recorder.counters = { honey: 3, wax: 1, predictions: 9 };
    now += 1500;
    const records = recorder.finish(T0, 5, 'the service rejected the key');
    expect(records.map((r) => [r.kind, r.threadId, r.analyzer, r.fallback])).toEqual([
      ['post', 'a', 'builtin', true],
      ['skip', 'e', 'llm', undefined],
      ['skip', 'c', undefined, undefined],
      ['fail', 'd', undefined, undefined],
      ['run', undefined, undefined, undefined],
    ]);
    expect(records.at(-1)?.summary).toEqual({
      command: 'poll',
      posted: 1,
      skipped: 3,
      locked: 1,
      failed: 1,
      exitCode: 5,
      elapsedMs: 1500,
      error: 'the service rejected the key',
      counters: { honey: 3, wax: 1, predictions: 9 },
    });
  });
});
