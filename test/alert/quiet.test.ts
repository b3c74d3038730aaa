import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { postingOf, reasonKind } from '../../src/alert/quiet.js';
import { appendHistory } from '../../src/history/log.js';
import type { HistoryEntry } from '../../src/history/entry.js';

const NOW = Date.parse('2026-11-02T12:00:00.000Z');
const HOUR = 3_600_000;
const at = (hoursAgo: number) => new Date(NOW - hoursAgo * HOUR).toISOString();
const run = (hoursAgo: number): HistoryEntry => ({
  ts: at(hoursAgo),
  kind: 'run',
  summary: { command: 'poll', posted: 0, skipped: 0, failed: 0, exitCode: 0, elapsedMs: 5 },
});
const skip = (hoursAgo: number, reason: string): HistoryEntry => ({
  ts: at(hoursAgo),
  kind: 'skip',
  threadId: `t${hoursAgo}`,
  reason,
});
const post = (hoursAgo: number): HistoryEntry => ({
  ts: at(hoursAgo),
  kind: 'post',
  threadId: `p${hoursAgo}`,
  conviction: 1,
  text: 'x',
});

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-quiet-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

function history(...records: HistoryEntry[]): void {
  appendHistory(dir, records, (message) => {
    throw new Error(message);
  });
}

describe('whether the agent posts, from its history', () => {
  it('quiet: a day covered, no post in it, threads skipped; the top reasons counted by kind', () => {
    history(
      post(30),
      run(25),
      skip(20, 'the evidence is too weak (strength +0.10)'),
      skip(10, 'strength +0.21 is below the selective threshold 0.30'),
      skip(9, 'strength -0.12 is below the selective threshold 0.30'),
      run(1),
    );
    expect(postingOf(dir, NOW)).toEqual({
      state: 'quiet',
      // The day read back, not the post before it: nothing older than the day is read.
      since: at(24),
      skipped: 3,
      reasons: [
        { reason: "the strength was below the profile's participation threshold", count: 2 },
        { reason: 'the evidence was too weak', count: 1 },
      ],
    });
  });

  it('posting: a post within the day', () => {
    history(run(25), skip(20, 'weak'), post(23), skip(2, 'weak'));
    expect(postingOf(dir, NOW)).toEqual({ state: 'posting' });
  });

  it('unknown: less than a day of history, or no thread came in the day', () => {
    history(run(20), skip(10, 'weak'), skip(2, 'weak'));
    expect(postingOf(dir, NOW)).toEqual({ state: 'unknown' });
    history(run(30));
    expect(postingOf(dir, NOW + 30 * HOUR)).toEqual({ state: 'unknown' });
    expect(postingOf(fs.mkdtempSync(path.join(dir, 'empty-')), NOW)).toEqual({ state: 'unknown' });
  });

  it("reasonKind keeps the words and drops one thread's numbers", () => {
    expect(reasonKind('the bearish bias outweighs the weak evidence (strength +0.20)')).toBe(
      'the bearish bias outweighs the weak evidence',
    );
    expect(reasonKind('given up after 5 temporary failures')).toBe('given up after N temporary failures');
  });
});
