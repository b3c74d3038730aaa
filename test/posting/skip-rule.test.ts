import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SKIP_KINDS, skipKindOfReason } from '../../src/domain/skip.js';
import { BY_HAND, skipByJournal, skipByThread } from '../../src/posting/skip-rule.js';
import { thread as threadOf } from '../support/threads.js';

// The one rule for when a thread is skipped (src/posting/skip-rule.ts); poll and predict each apply it in
// test/poll/prepare-thread.test.ts and test/commands/predict/predict.test.ts.

const KEY = 'ak_0123456789abcdefGHIJ';
const ts = '2026-11-25T12:00:00.000Z';
const at = ({ cell, locked }: { cell: string; locked: boolean }) =>
  threadOf('t', ts, { cell, projectId: `c/${cell}`, locked });

describe('the skip rule', () => {
  it.each([
    ['posted', 'already-predicted'],
    ['posting', 'may-have-landed'],
    ['unknown', 'may-have-landed'],
    ['skipped', undefined],
    ['failed', undefined],
  ] as const)('a journal entry %s: %s', (status, kind) => {
    expect(skipByJournal({ ts, status })?.skipKind).toBe(kind);
  });

  it('no entry is no bar', () => {
    expect(skipByJournal(undefined)).toBeUndefined();
  });

  it.each([
    ['open, in an ordinary cell', { cell: 'bitcoin', locked: false }, undefined],
    ['locked', { cell: 'bitcoin', locked: true }, 'locked'],
    ['in a cell that holds the key, lower-cased', { cell: KEY.toLowerCase(), locked: false }, 'keyed-thread'],
    ['locked and keyed: the first step that applies wins', { cell: KEY, locked: true }, 'locked'],
  ] as const)('a thread %s: %s', (_name, thread, kind) => {
    expect(skipByThread(at(thread), [KEY])?.skipKind).toBe(kind);
  });

  it('a key too short to be one is never looked for (a cell "c" is not the key "c")', () => {
    expect(skipByThread(at({ cell: 'abc', locked: false }), ['abc'])).toBeUndefined();
  });

  it("each skip's reason maps back to its kind: old history lines and new count alike", () => {
    const skips = [
      skipByJournal({ ts, status: 'posted' }),
      skipByJournal({ ts, status: 'unknown' }),
      skipByThread(at({ cell: 'x', locked: true }), []),
      skipByThread(at({ cell: KEY, locked: false }), [KEY]),
    ];
    for (const skip of skips) expect(skip && skipKindOfReason(skip.reason)).toBe(skip?.skipKind);
  });

  it('by hand, a person overrides only the decision, and is refused only what they cannot have', () => {
    expect(Object.keys(BY_HAND).sort()).toEqual(Object.keys(SKIP_KINDS).sort());
    const by = (what: string) =>
      Object.entries(BY_HAND)
        .filter(([, how]) => how === what)
        .map(([kind]) => kind);
    expect(by('refuses')).toEqual(['locked', 'malformed']);
    // Never-twice and the key are never overridden.
    for (const kind of ['already-predicted', 'may-have-landed', 'keyed-thread'] as const)
      expect(BY_HAND[kind]).toBe('skips');
  });
});

describe('skip kinds of older history lines', () => {
  it.each([
    ['strength +0.31 is below the moderate threshold 0.25', 'below-threshold'],
    ['strength -0.28 is below the selective threshold 0.45', 'below-threshold'],
    ['the evidence is too weak (strength +0.03)', 'weak-evidence'],
    ['the evidence cancels out (strength 0.00)', 'mixed-evidence'],
    ['the bearish bias outweighs the weak evidence (strength +0.08)', 'bias'],
    ['no evidence: nothing in the thread reads bullish or bearish', 'no-evidence'],
    ['the analyzer gave conviction 0, which has no direction', 'unusable-answer'],
    ["the analyzer's text says bearish but its conviction is +0.5", 'contradiction'],
    ['malformed thread (text: expected string)', 'malformed'],
    ['locked', 'locked'],
    ['already predicted by this agent', 'already-predicted'],
    ['the model thinks nothing new happened', 'other'],
    ['', 'other'],
  ] as const)('%j: %s', (reason, kind) => {
    expect(skipKindOfReason(reason)).toBe(kind);
  });
});

describe('the docs', () => {
  it('docs/record.md lists every kind with the words stats prints', () => {
    const page = fs.readFileSync(path.join(import.meta.dirname, '..', '..', 'docs', 'record.md'), 'utf8');
    for (const [kind, words] of Object.entries(SKIP_KINDS)) expect(page).toContain(`| \`${kind}\` | ${words} |`);
  });
});
