// A busy feed: more outcomes within the history's look-back than the outcomes files hold. Each decision
// is resolved once whatever the rotation drops; a run writes what its own prices told, no more; and what
// stats reads never swings back and forth from one run to the next.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { appendHistory } from '../../src/history/log.js';
import type { HistoryRecord } from '../../src/history/record.js';
import { outcomesFile, readOutcomes } from '../../src/record/outcomes.js';
import { PriceRecorder } from '../../src/record/recorder.js';
import { settleRecord } from '../../src/record/settle.js';
import { thread } from '../support/threads.js';

const T0 = Date.parse('2025-06-01T00:00:00.000Z');
const MIN = 60_000;
const H = 60 * MIN;
const DAY = 24 * H;
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

describe('the record on a busy feed', () => {
  it('resolves each decision once across rotations, writes per run only what the run read, and keeps stats steady', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'record-busy-'));
    dirs.push(dir);
    // Scaled down so that the test stays fast: 40 KiB outcome files (~100 outcomes each) against a feed
    // of 480 decisions a day, 8 days of look-back: the same ratio as a 4 MiB file against a feed of ~5,000.
    const limit = 40 * 1024;
    const file = outcomesFile(dir);
    const perRun = 20; // a thread every 3 minutes, an hourly poll
    const runEvery = H;
    const runs = (9 * DAY) / runEvery;
    let n = 0;
    const written: number[] = [];
    const bytes: number[] = [];
    const seen: number[] = [];
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
          (t, i): HistoryRecord =>
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
      for (const o of outcomes) resolvedOf.set(o.threadId, (resolvedOf.get(o.threadId) ?? 0) + 1);
      seen.push(readOutcomes(dir, now - 7 * DAY).outcomes.size);
    }
    expect(size(file.previous)).toBeGreaterThan(0);
    // Each decision resolved once: never again after its outcome rotated away.
    expect([...resolvedOf.values()].filter((times) => times > 1)).toEqual([]);
    expect(resolvedOf.size).toBeGreaterThan(runs * perRun - 10 * perRun);
    // A run writes the outcomes its prices told: those of about the threads of one run, a few more at most.
    expect(Math.max(...written)).toBeLessThanOrEqual(2 * perRun);
    expect(Math.max(...bytes)).toBeLessThan(2 * perRun * 600);
    // What stats reads only falls when a file rotates away, and that is rare: a file lasts many runs.
    const falls = seen.filter((count, i) => i > 0 && count < (seen[i - 1] as number)).length;
    expect(falls).toBeLessThanOrEqual(Math.ceil(runs / (limit / (perRun * 600))));
  });
});
