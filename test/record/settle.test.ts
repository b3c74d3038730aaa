// Resolving what the history holds against the recorded prices: once each, with the samples named.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { appendHistory } from '../../src/history/log.js';
import type { HistoryEntry } from '../../src/history/entry.js';
import { readOutcomes } from '../../src/record/outcomes.js';
import { appendLines } from '../../src/record/private-lines.js';
import { pricesFile, readAtLine, sampleLine } from '../../src/record/samples.js';
import { LOOKBACK_MS, settleRecord } from '../../src/record/settle.js';

const T0 = Date.parse('2025-06-01T12:00:00.000Z');
const MIN = 60_000;
const H = 60 * MIN;
const KEY = 'hive_0123456789abcdef0123456789abcdef';
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function world() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'record-settle-'));
  dirs.push(dir);
  const history = (records: HistoryEntry[]) =>
    appendHistory(dir, records, (message) => {
      throw new Error(message);
    });
  /** A run that read these threads at `readAt`: one batch of samples. */
  const read = (readAt: number, samples: Array<[id: string, cell: string, ms: number, price: number]>) =>
    appendLines(
      pricesFile(dir),
      `${readAtLine(readAt)}\n${samples.map(([threadId, cell, ms, price]) => `${sampleLine({ threadId, cell, ms, price })}\n`).join('')}`,
    );
  const settle = (now: number) => settleRecord({ dir, now, redact: (text) => text.split(KEY).join('hive_...cdef') });
  const outcomes = () => readOutcomes(dir).outcomes;
  return { dir, history, read, settle, outcomes };
}
const iso = (ms: number) => new Date(ms).toISOString();

describe('settleRecord', () => {
  it('resolves posts and skips once the prices reach 3 hours after their threads, once each', () => {
    const w = world();
    w.read(T0 + MIN, [
      ['up', 'bitcoin', T0, 100_000],
      ['down', 'ethereum', T0, 3_000],
      ['quiet', 'bitcoin', T0 + 30_000, 100_010],
    ]);
    w.history([
      { ts: iso(T0 + MIN), kind: 'post', threadId: 'up', cell: 'bitcoin', conviction: 1.2, text: 'x' },
      { ts: iso(T0 + MIN), kind: 'post', threadId: 'down', cell: 'ethereum', conviction: 0.8, text: 'y' },
      { ts: iso(T0 + MIN), kind: 'skip', threadId: 'quiet', cell: 'bitcoin', reason: 'no evidence either way' },
    ]);
    // Nothing can be known yet: the prices end minutes after the threads.
    expect(w.settle(T0 + 2 * MIN)).toEqual([]);

    w.read(T0 + 3 * H + 10 * MIN, [
      ['b1', 'bitcoin', T0 + 3 * H - 5 * MIN, 100_900],
      ['b2', 'bitcoin', T0 + 3 * H + 5 * MIN, 101_100],
      ['e1', 'ethereum', T0 + 3 * H + 2 * MIN, 2_970],
      ['e2', 'ethereum', T0 + 3 * H + 40 * MIN, 2_900],
    ]);
    const now = T0 + 3 * H + 20 * MIN;
    const written = w.settle(now);
    expect(written).toHaveLength(3);
    const up = w.outcomes().get('post\nup')!;
    expect(up).toMatchObject({
      kind: 'post',
      cell: 'bitcoin',
      conviction: 1.2,
      move: 1,
      right: true,
      price: 101_000,
      thread: { ts: iso(T0), price: 100_000 },
      resolvedAt: iso(now),
      decidedAt: iso(T0 + MIN),
    });
    expect(up.samples?.map((x) => x.threadId)).toEqual(['b1', 'b2']);
    expect(w.outcomes().get('post\ndown')).toMatchObject({ move: -1, right: false, samples: [{ threadId: 'e1' }] });
    expect(w.outcomes().get('skip\nquiet')).toMatchObject({ kind: 'skip', right: null });
    // Written once: the next run finds nothing left to resolve.
    expect(w.settle(now + 5 * MIN)).toEqual([]);
    const lines = fs.readFileSync(path.join(w.dir, 'outcomes.jsonl'), 'utf8').trim().split('\n');
    // The three outcomes, and the mark of the settle that wrote them (how far its walk had read).
    expect(lines).toHaveLength(4);
    expect(JSON.parse(lines[3] as string)).toEqual({ settledAt: iso(now), walked: iso(T0 + 3 * H + 40 * MIN) });
    expect(fs.statSync(path.join(w.dir, 'outcomes.jsonl')).mode & 0o777).toBe(0o600);
  });

  it('says why a post can never be resolved: no price on its thread, none near 3 hours on, none before the record', () => {
    const w = world();
    w.read(T0 + 5 * MIN, [['priced', 'solana', T0, 180]]);
    w.history([
      { ts: iso(T0 - 2 * H), kind: 'post', threadId: 'old', cell: 'solana', conviction: 1, text: 'x' },
      { ts: iso(T0 + 5 * MIN), kind: 'post', threadId: 'unpriced', cell: 'solana', conviction: 1, text: 'x' },
      { ts: iso(T0 + 5 * MIN), kind: 'post', threadId: 'priced', cell: 'solana', conviction: 1, text: 'x' },
    ]);
    w.read(T0 + 9 * H + MIN, [['late', 'solana', T0 + 9 * H, 185]]);
    // 9 hours after the decision by the clock: a thread with no price can never have one now.
    w.settle(T0 + 9 * H + 6 * MIN);
    const outcomes = w.outcomes();
    expect(outcomes.get('post\nold')).toMatchObject({
      move: null,
      right: null,
      unresolvable: expect.stringMatching(/before the record/),
    });
    expect(outcomes.get('post\nunpriced')).toMatchObject({
      move: null,
      unresolvable: expect.stringMatching(/no usable price/),
    });
    expect(outcomes.get('post\npriced')).toMatchObject({
      move: null,
      unresolvable: expect.stringMatching(/within 15 minutes/),
    });
  });

  it('reads the history only back to its look-back, and the prices only back to the oldest pending decision', () => {
    const w = world();
    const now = T0 + 10 * 24 * H;
    w.history([{ ts: iso(now - LOOKBACK_MS - H), kind: 'post', threadId: 'ancient', cell: 'bitcoin', conviction: 1 }]);
    w.read(now - 5 * H, [['recent', 'bitcoin', now - 5 * H, 100]]);
    w.history([{ ts: iso(now - 5 * H), kind: 'post', threadId: 'recent', cell: 'bitcoin', conviction: -1 }]);
    // A malformed line in the prices before the pending batch is never reached, so never a problem.
    fs.writeFileSync(
      path.join(w.dir, 'prices.jsonl'),
      `not json\n${fs.readFileSync(path.join(w.dir, 'prices.jsonl'), 'utf8')}`,
    );
    w.read(now - H, [['later', 'bitcoin', now - 2 * H + 3 * MIN, 99]]);
    expect(w.settle(now).map((o) => [o.threadId, o.move])).toEqual([['recent', -1]]);
    expect(w.outcomes().has('post\nancient')).toBe(false);
  });

  it('takes the first price recorded for a thread as its p0, whatever was read again later', () => {
    const w = world();
    w.read(T0 + MIN, [['dup', 'bitcoin', T0, 100]]);
    w.history([{ ts: iso(T0 + MIN), kind: 'post', threadId: 'dup', cell: 'bitcoin', conviction: 1, text: 'x' }]);
    w.read(T0 + H, [['dup', 'bitcoin', T0, 50]]);
    w.read(T0 + 3 * H + 5 * MIN, [['later', 'bitcoin', T0 + 3 * H, 101]]);
    expect(w.settle(T0 + 3 * H + 40 * MIN)).toMatchObject([
      { threadId: 'dup', move: 1, right: true, thread: { price: 100 } },
    ]);
  });

  it('resolves a late decision from every sample near 3 hours after its thread, whatever else is pending', () => {
    const now = T0 + 4 * H;
    const late = () => {
      const w = world();
      w.read(now - 189 * MIN, [['L', 'bitcoin', now - 190 * MIN, 100]]);
      w.read(now - 8 * MIN, [
        ['A1', 'bitcoin', now - 11 * MIN, 110],
        ['A2', 'bitcoin', now - 9 * MIN, 110],
      ]);
      return w;
    };
    const alone = late();
    alone.read(now - 90_000, [['L', 'bitcoin', now - 190 * MIN, 100]]);
    alone.history([{ ts: iso(now - MIN), kind: 'post', threadId: 'L', cell: 'bitcoin', conviction: 1.2, text: 'x' }]);
    // The same data with one unrelated batch read between the 3-hour samples and the decision.
    const busy = late();
    busy.read(now - 7 * MIN, [['O', 'ethereum', now - 8 * MIN, 50]]);
    busy.read(now - 90_000, [['L', 'bitcoin', now - 190 * MIN, 100]]);
    busy.history([{ ts: iso(now - MIN), kind: 'post', threadId: 'L', cell: 'bitcoin', conviction: 1.2, text: 'x' }]);
    for (const w of [alone, busy]) {
      w.read(now, [['N', 'bitcoin', now - MIN, 90]]);
      expect(w.settle(now + MIN)).toMatchObject([{ threadId: 'L', move: 10, right: true }]);
    }
  });

  it('leaves a thread without a price pending until the clock says it can never have one', () => {
    const w = world();
    // A thread dated ahead of the local clock: its price is not recorded when the post is made.
    w.history([{ ts: iso(T0), kind: 'post', threadId: 'ahead', cell: 'bitcoin', conviction: 1, text: 'x' }]);
    w.read(T0, [['other', 'bitcoin', T0 - MIN, 100]]);
    expect(w.settle(T0 + MIN)).toEqual([]);
    w.read(T0 + 10 * MIN, [['ahead', 'bitcoin', T0 + 2 * MIN, 100]]);
    w.read(T0 + 3 * H + 10 * MIN, [['b', 'bitcoin', T0 + 3 * H + 2 * MIN, 102]]);
    expect(w.settle(T0 + 3 * H + 40 * MIN)).toMatchObject([{ threadId: 'ahead', move: 2, right: true }]);
    // One that never gets a price is given up 9 hours after the decision, by the clock.
    w.history([{ ts: iso(T0 + 4 * H), kind: 'post', threadId: 'never', cell: 'bitcoin', conviction: 1, text: 'x' }]);
    expect(w.settle(T0 + 12 * H)).toEqual([]);
    expect(w.settle(T0 + 13 * H + MIN)).toMatchObject([
      { threadId: 'never', unresolvable: expect.stringMatching(/no usable price/) },
    ]);
  });

  it('settles a history made by hand with mode 644, as the history writer takes it, and makes it private', () => {
    const w = world();
    const history = path.join(w.dir, 'history.jsonl');
    fs.writeFileSync(
      history,
      `${JSON.stringify({ ts: iso(T0 + MIN), kind: 'post', threadId: 'hand', cell: 'bitcoin', conviction: 1, text: 'x' })}\n`,
    );
    fs.chmodSync(history, 0o644);
    w.read(T0 + MIN, [['hand', 'bitcoin', T0, 100]]);
    w.read(T0 + 3 * H + 5 * MIN, [['b', 'bitcoin', T0 + 3 * H, 99]]);
    expect(w.settle(T0 + 3 * H + 40 * MIN)).toMatchObject([{ threadId: 'hand', move: -1, right: false }]);
    expect(fs.statSync(history).mode & 0o777).toBe(0o600);
  });

  it('writes which samples resolved an outcome and which absurd ones near it were left out', () => {
    const w = world();
    w.read(T0 + MIN, [['q', 'ethereum', T0, 100]]);
    w.history([{ ts: iso(T0 + MIN), kind: 'post', threadId: 'q', cell: 'ethereum', conviction: -1, text: 'x' }]);
    w.read(T0 + 3 * H + 5 * MIN, [
      ['good', 'ethereum', T0 + 3 * H - MIN, 99],
      ['bad1', 'ethereum', T0 + 3 * H + MIN, 1e-7],
      ['bad2', 'ethereum', T0 + 3 * H + 2 * MIN, 1e-7],
    ]);
    w.read(T0 + 3 * H + 45 * MIN, [['next', 'ethereum', T0 + 3 * H + 40 * MIN, 99.5]]);
    w.settle(T0 + 3 * H + 50 * MIN);
    expect(w.outcomes().get('post\nq')).toMatchObject({
      move: -1,
      right: true,
      samples: [{ threadId: 'good', price: 99 }],
      dropped: [{ threadId: 'bad1' }, { threadId: 'bad2' }],
    });
  });

  it('reads the outcomes back only to the period asked for (stats --since), first written winning', () => {
    const w = world();
    fs.writeFileSync(path.join(w.dir, 'outcomes.jsonl'), 'not json\n', { mode: 0o600 });
    for (const [id, at, price] of [
      ['old', T0, 100],
      ['new', T0 + 2 * 24 * H, 100],
    ] as const) {
      w.read(at + MIN, [[id, 'bitcoin', at, price]]);
      w.history([{ ts: iso(at + MIN), kind: 'post', threadId: id, cell: 'bitcoin', conviction: 1, text: 'x' }]);
      w.read(at + 3 * H + 5 * MIN, [[`${id}3h`, 'bitcoin', at + 3 * H, 101]]);
      w.settle(at + 3 * H + 40 * MIN);
    }
    // A second outcome for the same post (a copy) never replaces the first.
    const lines = fs.readFileSync(path.join(w.dir, 'outcomes.jsonl'), 'utf8').trim().split('\n');
    fs.appendFileSync(path.join(w.dir, 'outcomes.jsonl'), `${(lines.at(-1) ?? '').replace('"move":1', '"move":5')}\n`);
    const recent = readOutcomes(w.dir, T0 + 24 * H);
    expect(recent.unreadable).toBe(0);
    expect([...recent.outcomes.keys()]).toEqual(['post\nnew']);
    expect(recent.outcomes.get('post\nnew')?.move).toBe(1);
    expect(readOutcomes(w.dir).unreadable).toBe(1);
  });

  it('never writes the key, and copies which analyzer decided when the history says', () => {
    const w = world();
    w.read(T0 + MIN, [[`t${KEY}`, 'bitcoin', T0, 100]]);
    w.history([
      {
        ts: iso(T0 + MIN),
        kind: 'post',
        threadId: `t${KEY}`,
        cell: 'bitcoin',
        conviction: 1,
        analyzer: 'llm',
        fallback: true,
      } as HistoryEntry,
    ]);
    w.read(T0 + 4 * H, [['b', 'bitcoin', T0 + 3 * H, 100.02]]);
    const [outcome] = w.settle(T0 + 4 * H);
    expect(outcome).toMatchObject({ analyzer: 'llm', fallback: true, right: null, move: 0.02 });
    expect(fs.readFileSync(path.join(w.dir, 'outcomes.jsonl'), 'utf8')).not.toContain(KEY);
  });
});
