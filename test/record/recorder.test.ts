// What a run records as it reads: every thread's price, open or locked, the open ones' texts; never the key.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readAllLines } from '../../src/record/private-lines.js';
import { PriceRecorder } from '../../src/record/recorder.js';
import { parsePriceLine, pricesFile } from '../../src/record/samples.js';
import { threadsFile } from '../../src/record/thread-texts.js';
import { makeOutput } from '../support/streams.js';
import { thread } from '../support/threads.js';

const NOW = Date.parse('2025-06-01T12:00:00.000Z');
const KEY = 'hive_0123456789abcdef0123456789abcdef';
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function setUp() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'record-rec-'));
  dirs.push(dir);
  const { output, stderr } = makeOutput();
  output.addSecret(KEY);
  const warnings: string[] = [];
  const recorder = new PriceRecorder({
    dir,
    now: () => NOW,
    redact: (text) => output.redact(text),
    warn: (message) => warnings.push(message),
  });
  const samples = () =>
    readAllLines(pricesFile(dir))
      .map(parsePriceLine)
      .flatMap((line) => (line?.kind === 'sample' ? [line.sample] : []));
  return { dir, recorder, samples, warnings, stderr };
}
const minutesAgo = (m: number) => new Date(NOW - m * 60_000).toISOString();

describe('PriceRecorder', () => {
  it("records every thread's price by its own timestamp, open or locked, and the open ones' texts", () => {
    const { dir, recorder, samples } = setUp();
    recorder.page([
      thread('open', minutesAgo(5), { priceOnFetch: 97_000.5 }),
      thread('locked', minutesAgo(200), {
        priceOnFetch: 96_500,
        locked: true,
        cell: 'ethereum',
        projectId: 'c/ethereum',
      }),
    ]);
    expect(samples()).toEqual([
      { threadId: 'open', cell: 'bitcoin', ms: NOW - 5 * 60_000, price: 97_000.5 },
      { threadId: 'locked', cell: 'ethereum', ms: NOW - 200 * 60_000, price: 96_500 },
    ]);
    expect(recorder.recorded).toBe(2);
    const texts = readAllLines(threadsFile(dir)).map((line) => JSON.parse(line));
    expect(texts).toEqual([
      expect.objectContaining({
        id: 'open',
        project_id: 'c/bitcoin',
        price_on_fetch: 97_000.5,
        timestamp: minutesAgo(5),
      }),
    ]);
    // Each batch says when it was read: a reader after the last hours stops there.
    expect(readAllLines(pricesFile(dir))[0]).toBe(JSON.stringify({ readAt: new Date(NOW).toISOString() }));
  });

  it.each([
    ['no price', undefined],
    ['zero', 0],
    ['a negative price', -5],
    ['NaN', Number.NaN],
    ['Infinity', Number.POSITIVE_INFINITY],
    ['an absurd size', 1e20],
  ])('adds no sample for a thread with %s', (_, price) => {
    const { recorder, samples } = setUp();
    recorder.page([thread('t', minutesAgo(1), { priceOnFetch: price })]);
    expect(samples()).toEqual([]);
    expect(recorder.recorded).toBe(0);
  });

  it('uses nothing from a thread dated ahead of the local clock: its date cannot place it', () => {
    const { dir, recorder, samples } = setUp();
    recorder.page([thread('ahead', new Date(NOW + 60 * 60_000).toISOString(), { priceOnFetch: 1 })]);
    expect(samples()).toEqual([]);
    expect(readAllLines(threadsFile(dir))).toEqual([]);
  });

  it('writes nothing at all for a page without threads', () => {
    const { dir, recorder } = setUp();
    recorder.page([]);
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('never holds the key: a thread quoting it is kept masked, in its text and its id', () => {
    const { dir, recorder } = setUp();
    recorder.page([thread(`x${KEY}`, minutesAgo(1), { priceOnFetch: 2, text: `leaked ${KEY} here` })]);
    for (const file of fs.readdirSync(dir)) {
      const text = fs.readFileSync(path.join(dir, file), 'utf8');
      expect(text, file).not.toContain(KEY);
      expect(text, file).toContain('hive_');
      expect(fs.statSync(path.join(dir, file)).mode & 0o777).toBe(0o600);
    }
  });

  it('a file it cannot write is said once; the run goes on without the record', () => {
    const { dir, recorder, warnings } = setUp();
    fs.mkdirSync(path.join(dir, 'prices.jsonl'));
    recorder.page([thread('a', minutesAgo(2), { priceOnFetch: 3 })]);
    recorder.page([thread('b', minutesAgo(1), { priceOnFetch: 3 })]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/could not add to the price record in .* the run goes on without it/);
    expect(recorder.recorded).toBe(0);
  });
});
