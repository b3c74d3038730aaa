// A busy feed: more outcomes within the history's look-back than the outcomes files hold. Each decision
// is resolved once whatever the rotation drops; a run writes what its own prices told, no more; and what
// stats reads never swings back and forth from one run to the next.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { appendHistory } from '../../src/history/log.js';
import type { HistoryEntry } from '../../src/history/entry.js';
import { outcomesFile, readOutcomes } from '../../src/record/outcomes.js';
import { PriceRecorder } from '../../src/record/recorder.js';
import { settleRecord } from '../../src/record/settle.js';
import { thread } from '../support/threads.js';

const T0 = Date.parse('2025-06-01T00:00:00.000Z');
const MIN = 60_000;
const H = 60 * MIN;
const DAY = 24 * H;
/** What `agent stats` shows by default. */
const WEEK = 7 * DAY;
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function size(file: string): number {
  try {
    return fs.statSync(file).size;
  } catch {
    return 0;
  }
}

interface Feed {
  /** Where outcomes.jsonl rotates: scaled down so that the test stays fast. */
  limit: number;
  /** Threads (each a post or a skip) a run reads. */
  perRun: number;
  runEvery: number;
  days: number;
}

/** The record of a feed polled `days` long: what each run wrote, and what stats' week read after it. */
function busyFeed({ limit, perRun, runEvery, days }: Feed) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'record-busy-'));
  dirs.push(dir);
  const file = outcomesFile(dir);
  const runs = (days * DAY) / runEvery;
  let n = 0;
  const written: number[] = [];
  const bytes: number[] = [];
  const seen: number[] = [];
  const inWeek: number[] = [];
  const resolvedAt: number[] = [];
  const resolvedOf = new Map<string, number>();
  for (let run = 1; run <= runs; run++) {
    const now = T0 + run * runEvery;
    const threads = Array.from({ length: perRun }, (_, i) => {
      const ms = now - runEvery + (i + 0.5) * (runEvery / perRun);
      n += 1;
      return thread(`th_${n}`, new Date(ms).toISOString(), { priceOnFetch: 100 + Math.sin(n / 7) });
    });
    new PriceRecorder({ dir, now: () => now, redact: (t) => t, warn: () => {} }).page(threads);
    appendHistory(
      dir,
      threads.map(
        (t, i): HistoryEntry =>
          i % 3
            ? {
                ts: new Date(now).toISOString(),
                kind: 'skip',
                threadId: t.id,
                cell: 'bitcoin',
                reason: 'no evidence either way',
              }
            : {
                ts: new Date(now).toISOString(),
                kind: 'post',
                threadId: t.id,
                cell: 'bitcoin',
                conviction: 1,
                text: 'x',
              },
      ),
      () => {},
    );
    const before = size(file.current) + size(file.previous);
    const rotatedBefore = size(file.previous);
    const outcomes = settleRecord({ dir, now, redact: (t) => t, outcomesLimitBytes: limit });
    const after = size(file.current) + size(file.previous);
    written.push(outcomes.length);
    bytes.push(size(file.previous) !== rotatedBefore ? size(file.current) : after - before);
    for (const o of outcomes) {
      resolvedOf.set(o.threadId, (resolvedOf.get(o.threadId) ?? 0) + 1);
      resolvedAt.push(Date.parse(o.resolvedAt));
    }
    seen.push(readOutcomes(dir, now - WEEK).outcomes.size);
    inWeek.push(resolvedAt.filter((at) => at >= now - WEEK).length);
  }
  return { file, runs, written, bytes, seen, inWeek, resolvedOf };
}

describe('the record on a busy feed', () => {
  it('resolves each decision once across rotations, writes per run only what the run read, and keeps stats steady', () => {
    // 40 KiB outcome files (~100 outcomes each) against a feed of 480 decisions a day, 8 days of
    // look-back: the same ratio as a 4 MiB file against a feed of ~5,000, more than a week of which does
    // not fit even the files' most (4 times their limit).
    const perRun = 20; // a thread every 3 minutes, an hourly poll
    const limit = 40 * 1024;
    const feed = busyFeed({ limit, perRun, runEvery: H, days: 9 });
    const { file, runs, written, bytes, seen, resolvedOf } = feed;
    expect(size(file.previous)).toBeGreaterThan(0);
    // Each decision resolved once: never again after its outcome rotated away.
    expect([...resolvedOf.values()].filter((times) => times > 1)).toEqual([]);
    expect(resolvedOf.size).toBeGreaterThan(runs * perRun - 10 * perRun);
    // A run writes the outcomes its prices told: those of about the threads of one run, a few more at most.
    expect(Math.max(...written)).toBeLessThanOrEqual(2 * perRun);
    expect(Math.max(...bytes)).toBeLessThan(2 * perRun * 600);
    // The files stay within their bound: the current one at its most (4 times the limit).
    expect(size(file.current)).toBeLessThanOrEqual(4 * limit);
    // What stats reads only falls when a file rotates away, and that is rare: a file lasts many runs.
    const falls = seen.filter((count, i) => i > 0 && count < (seen[i - 1] as number)).length;
    expect(falls).toBeLessThanOrEqual(Math.ceil(runs / (limit / (perRun * 600))));
  });

  it("keeps every outcome of stats' week across rotations while the week fits the files' most", () => {
    // 36 decisions a day, ~12 KiB: a week is ~2.2 times the 40 KiB limit (so a plain rotation at the
    // limit drops part of it) and within the most (4 times the limit). Sixteen days: several rotations.
    const feed = busyFeed({ limit: 40 * 1024, perRun: 6, runEvery: 4 * H, days: 16 });
    expect(size(feed.file.previous)).toBeGreaterThan(0);
    expect(feed.seen).toEqual(feed.inWeek);
    expect(Math.min(...feed.inWeek.slice(-10))).toBeGreaterThan(200);
  });
});
