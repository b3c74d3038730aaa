// What `agent history` shows beside a post or a skip, and what `history --json` adds to it.
import { describe, expect, it } from 'vitest';
import type { HistoryEntry } from '../../src/history/entry.js';
import { OUTCOME_WIDTH, outcomeColumn, withOutcome } from '../../src/record/history-outcomes.js';
import { type OutcomeRecord, outcomeKey } from '../../src/record/outcomes.js';

const post: HistoryEntry = {
  ts: '2025-06-01T12:00:00.000Z',
  kind: 'post',
  threadId: 'p',
  cell: 'bitcoin',
  conviction: 1,
};
const skip: HistoryEntry = {
  ts: '2025-06-01T12:00:00.000Z',
  kind: 'skip',
  threadId: 's',
  cell: 'bitcoin',
  reason: 'x',
};
const base = { resolvedAt: '2025-06-01T15:10:00.000Z', cell: 'bitcoin', decidedAt: post.ts };
const outcome = (
  kind: 'post' | 'skip',
  threadId: string,
  move: number | null,
  right: boolean | null,
): OutcomeRecord => ({
  ...base,
  kind,
  threadId,
  move,
  right,
  ...(move === null
    ? { unresolvable: 'no price' }
    : {
        thread: { ts: post.ts, price: 100 },
        price: 100 + move,
        samples: [{ threadId: 'b', ts: base.resolvedAt, price: 100 + move }],
      }),
});
const only = (...records: OutcomeRecord[]) => new Map(records.map((r) => [outcomeKey(r.kind, r.threadId), r]));

describe('outcomeColumn', () => {
  it.each([
    [0.413, true, '+0.41% \u2713'],
    [-1.2, false, '-1.20% \u2717'],
    [0.01, null, '+0.01% \u00b7'],
  ])('a post that moved %s (right %s) shows %s', (move, right, shown) => {
    const column = outcomeColumn(post, only(outcome('post', 'p', move, right)));
    expect(column).toBe(shown.padStart(OUTCOME_WIDTH));
  });

  it('a pending post shows \u2026, one that can never be known says so, a skip shows its move in brackets', () => {
    expect(outcomeColumn(post, new Map()).trim()).toBe('\u2026');
    expect(outcomeColumn(post, only(outcome('post', 'p', null, null))).trim()).toBe('no price');
    expect(outcomeColumn(skip, only(outcome('skip', 's', -0.5, null))).trim()).toBe('(-0.50%)');
    expect(outcomeColumn(skip, new Map()).trim()).toBe('');
    // A post's outcome is not a skip's: a thread skipped by a poll and posted by hand has both.
    expect(outcomeColumn(skip, only(outcome('post', 's', 1, true))).trim()).toBe('');
  });
});

describe('outcomeColumn on moves of any size', () => {
  it.each([
    [99.994, '+99.99% \u2713', '(+99.99%)'],
    [-123.456, '-123.5% \u2713', '(-123.5%)'],
    [4567.8, '+4568% \u2713', '(+4568%)'],
    [-98765, '-98765% \u2713', '(-98765%)'],
    [-123456, '<-9999% \u2713', '(<-9999%)'],
    [1e12, '>+9999% \u2713', '(>+9999%)'],
  ])('%s keeps the column %s wide', (move, posted, skipped) => {
    const column = outcomeColumn(post, only(outcome('post', 'p', move, true)));
    expect(column).toBe(posted.padStart(OUTCOME_WIDTH));
    expect(outcomeColumn(skip, only(outcome('skip', 's', move, null)))).toBe(skipped.padStart(OUTCOME_WIDTH));
  });
});

describe('withOutcome', () => {
  it('adds move, right, resolvedAt and the prices and samples behind them; nothing while pending', () => {
    expect(withOutcome(post, new Map())).toEqual(post);
    expect(withOutcome(post, only(outcome('post', 'p', 0.5, true)))).toEqual({
      ...post,
      outcome: {
        move: 0.5,
        right: true,
        resolvedAt: base.resolvedAt,
        price0: 100,
        price3h: 100.5,
        samples: [{ threadId: 'b', ts: base.resolvedAt, price: 100.5 }],
      },
    });
    expect(withOutcome(post, only(outcome('post', 'p', null, null))).outcome).toEqual({
      move: null,
      right: null,
      resolvedAt: base.resolvedAt,
      unresolvable: 'no price',
    });
  });
});
