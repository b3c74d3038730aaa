import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseBacktestData, readBacktestFile } from '../../src/backtest/file.js';
import { UsageError } from '../../src/errors.js';

// The backtest file format (docs/backtest.md): an array of resolved threads or {"threads": [...]};
// one bad thread is left out and reported, a file that cannot serve at all is a usage error (exit 2).

function resolved(id: string | number, overrides: Record<string, unknown> = {}) {
  return {
    id,
    project_id: 'c/bitcoin',
    text: 'Spot bitcoin ETFs took in $400M of net inflows yesterday.',
    timestamp: '2026-03-02T08:00:00Z',
    price_on_fetch: 100,
    price_on_eval: 101,
    ...overrides,
  };
}

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-backtest-file-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

function file(content: string | Buffer, name = 'threads.json'): string {
  const p = path.join(dir, name);
  fs.writeFileSync(p, content);
  return p;
}

describe('readBacktestFile', () => {
  it('reads either top-level shape to the same threads', () => {
    const threads = [resolved('a'), resolved('b', { timestamp: '2026-03-02T09:00:00Z' })];
    const fromArray = readBacktestFile(file(JSON.stringify(threads), 'array.json'));
    const fromObject = readBacktestFile(file(JSON.stringify({ threads, exported_at: 'x' }), 'object.json'));
    expect(fromArray).toEqual(fromObject);
    expect(fromArray.threads.map((t) => t.id)).toEqual(['a', 'b']);
    expect(fromArray.invalid).toEqual([]);
  });

  it('keeps exactly the fields it uses: unknown ones are dropped, the timestamp gets its epoch', () => {
    const { threads } = readBacktestFile(
      file(
        JSON.stringify([
          resolved(7, { pollen_id: 'p', locked: true, secret: 's', citations: [{ url: 'u', title: 't', extra: 1 }] }),
        ]),
      ),
    );
    expect(threads[0]).toStrictEqual({
      id: '7',
      project_id: 'c/bitcoin',
      text: 'Spot bitcoin ETFs took in $400M of net inflows yesterday.',
      timestamp: '2026-03-02T08:00:00Z',
      timestampMs: Date.UTC(2026, 2, 2, 8),
      price_on_fetch: 100,
      price_on_eval: 101,
      citations: [{ url: 'u', title: 't' }],
    });
  });

  it('accepts a UTF-8 byte-order mark', () => {
    const { threads } = readBacktestFile(file(`\uFEFF${JSON.stringify([resolved('a')])}`));
    expect(threads).toHaveLength(1);
  });

  const refusedFiles: Array<[string, string, RegExp]> = [
    ['not JSON', '{"threads": [', /is not JSON/],
    ['a bare string', '"hello"', /neither an array of threads nor an object/],
    ['an object without threads', '{"items": []}', /neither an array/],
    ['threads not an array', '{"threads": {"a": 1}}', /neither an array/],
    ['an empty array', '[]', /has no valid thread: it is empty/],
    [
      'only invalid threads',
      JSON.stringify([{ id: 'x' }, 3]),
      /has no valid thread; the first problem: index 0: project_id: is missing/,
    ],
  ];
  it.each(refusedFiles)('refuses a file that is %s, naming it (exit 2)', (_what, content, message) => {
    const p = file(content);
    const error = catchError(() => readBacktestFile(p));
    expect(error).toBeInstanceOf(UsageError);
    expect(error.exitCode).toBe(2);
    expect(error.message).toMatch(message);
    expect(error.message).toContain(p);
  });

  it('refuses a missing file or a directory with a usage error naming it', () => {
    expect(catchError(() => readBacktestFile(path.join(dir, 'nope.json'))).message).toMatch(
      /cannot read backtest file .*nope\.json.*ENOENT/,
    );
    expect(catchError(() => readBacktestFile(dir))).toBeInstanceOf(UsageError);
  });

  it('refuses a file over the size cap before reading it, saying how big it is', () => {
    const p = file(JSON.stringify([resolved('a', { text: 'x'.repeat(3 * 1024 * 1024) })]));
    const error = catchError(() => readBacktestFile(p, 2 * 1024 * 1024));
    expect(error).toBeInstanceOf(UsageError);
    expect(error.message).toMatch(/is 3\.0 MB, more than the 2\.0 MB a backtest reads/);
    expect(readBacktestFile(p, 4 * 1024 * 1024).threads).toHaveLength(1);
  });
});

describe('parseBacktestData: thread by thread', () => {
  const accepted: Array<[string, Record<string, unknown>, Record<string, unknown>]> = [
    ['a numeric id', { id: 12 }, { id: '12' }],
    ['a project id without c/', { project_id: 'Solana' }, { project_id: 'Solana' }],
    [
      'prices as text',
      { price_on_fetch: '64000.5', price_on_eval: '64100' },
      { price_on_fetch: 64000.5, price_on_eval: 64100 },
    ],
    ['an offset timestamp', { timestamp: '2026-03-02T10:00:00+02:00' }, { timestampMs: Date.UTC(2026, 2, 2, 8) }],
    ['no citations', { citations: undefined }, { citations: [] }],
    ['citations that are not an array', { citations: 'none' }, { citations: [] }],
    ['a citation that is no object', { citations: ['x', { title: 't', url: 5 }] }, { citations: [{}, { title: 't' }] }],
    ['an empty text', { text: '' }, { text: '' }],
  ];
  it.each(accepted)('accepts %s', (_what, change, expected) => {
    const { threads, invalid } = parseBacktestData([{ ...resolved('a'), ...change }], 'f');
    expect(invalid).toEqual([]);
    expect(threads[0]).toMatchObject(expected);
  });

  const refused: Array<[string, Record<string, unknown>, string]> = [
    ['no id', { id: undefined }, 'id: is missing'],
    ['an empty id', { id: '' }, 'id: must be a non-empty string or a number'],
    ['no project', { project_id: undefined }, 'project_id: is missing'],
    ['a project that names no cell', { project_id: 'c/ ' }, 'project_id: must name a cell'],
    ['an overlong project', { project_id: `c/${'x'.repeat(200)}` }, 'project_id: must be at most 100 characters'],
    ['no text', { text: undefined }, 'text: is missing'],
    ['a text that is a number', { text: 5 }, 'text: must be a string'],
    ['a timestamp that is no instant', { timestamp: 'last tuesday' }, 'timestamp: must be an ISO 8601 timestamp'],
    ['no price_on_fetch', { price_on_fetch: undefined }, 'price_on_fetch: is missing'],
    ['price_on_fetch 0', { price_on_fetch: 0 }, 'price_on_fetch: must be a number greater than 0'],
    ['a negative price_on_eval', { price_on_eval: -3 }, 'price_on_eval: must be a number greater than 0'],
    ['price_on_eval null', { price_on_eval: null }, 'price_on_eval: must be a number greater than 0'],
    ['price_on_eval as garbage text', { price_on_eval: 'soon' }, 'price_on_eval: must be a number greater than 0'],
    ['price_on_eval blank', { price_on_eval: ' ' }, 'price_on_eval: must be a number greater than 0'],
  ];
  it.each(refused)('leaves out and reports a thread with %s', (_what, change, reason) => {
    const { threads, invalid } = parseBacktestData([resolved('good'), { ...resolved('bad'), ...change }], 'f');
    expect(threads.map((t) => t.id)).toEqual(['good']);
    expect(invalid).toHaveLength(1);
    expect(invalid[0]).toMatchObject({ index: 1 });
    expect(invalid[0]!.reason).toContain(reason);
    if (change.id === undefined && 'id' in change) expect(invalid[0]!.id).toBeUndefined();
    else if (change.id !== '') expect(invalid[0]!.id).toBe('bad');
  });

  it('reports an entry that is not an object by its index alone', () => {
    const { invalid } = parseBacktestData([resolved('a'), null, 'x', [1]], 'f');
    expect(invalid).toEqual([
      { index: 1, reason: 'not a thread: not an object' },
      { index: 2, reason: 'not a thread: not an object' },
      { index: 3, reason: 'not a thread: not an object' },
    ]);
  });

  it('keeps the first of two threads with the same id (also 7 and "7") and reports the others', () => {
    const { threads, invalid } = parseBacktestData(
      [
        resolved(7, { text: 'first' }),
        resolved('b'),
        resolved('7', { text: 'second' }),
        resolved(7, { text: 'third' }),
      ],
      'f',
    );
    expect(threads.map((t) => [t.id, t.text])).toEqual([
      ['7', 'first'],
      ['b', 'Spot bitcoin ETFs took in $400M of net inflows yesterday.'],
    ]);
    expect(invalid).toEqual([
      { index: 2, id: '7', reason: 'duplicate id: the thread at index 0 has it and is kept' },
      { index: 3, id: '7', reason: 'duplicate id: the thread at index 0 has it and is kept' },
    ]);
  });

  it('strips control characters from an id it reports', () => {
    const { invalid } = parseBacktestData([resolved('a'), resolved('\u001b[31mred', { price_on_eval: 0 })], 'f');
    expect(invalid[0]!.id).toBe('red');
  });
});

function catchError(fn: () => unknown): UsageError {
  try {
    fn();
  } catch (error) {
    return error as UsageError;
  }
  throw new Error('expected a failure');
}
