// An outcome is final once written: it may rest only on prices the poll's walk read in order, never on a
// later price that a `predict` by hand (or a poll's look at the latest page) recorded ahead of the walk.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { appendHistory } from '../../src/history/log.js';
import { readOutcomes } from '../../src/record/outcomes.js';
import { PriceRecorder } from '../../src/record/recorder.js';
import { settleRecord } from '../../src/record/settle.js';
import { thread } from '../support/threads.js';

const T0 = Date.parse('2025-06-01T12:00:00.000Z');
const MIN = 60_000;
const H = 60 * MIN;
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});
const iso = (ms: number) => new Date(ms).toISOString();

describe('settling from the walk only', () => {
  it('leaves a post pending while the walk is behind a price a predict by hand recorded, then settles it right', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'record-walk-'));
    dirs.push(dir);
    let now = T0;
    const recorder = () =>
      new PriceRecorder({
        dir,
        now: () => now,
        redact: (text) => text,
        warn: (message) => {
          throw new Error(message);
        },
      });
    const at = (id: string, ms: number, price: number) => thread(id, iso(ms), { priceOnFetch: price });
    // A poll reads the thread and posts on it: up 1.2%.
    now = T0 + MIN;
    recorder().page([at('th_post', T0, 100)]);
    appendHistory(
      dir,
      [{ ts: iso(now), kind: 'post', threadId: 'th_post', cell: 'bitcoin', conviction: 1.2, text: 'x' }],
      () => {},
    );
    // A service that sends fewer threads than asked: each poll's walk gets a little further, oldest first.
    now = T0 + 3 * H + 30 * MIN;
    recorder().page([at('th_a', T0 + H, 100.5), at('th_b', T0 + 3 * H - 12 * MIN, 101)]);
    // A predict by hand on the newest thread records its price, far ahead of the walk.
    now = T0 + 3 * H + 41 * MIN;
    recorder().page([at('th_newest', T0 + 3 * H + 40 * MIN, 95)], { ahead: true });
    // The next poll, still behind: the price 12 minutes early is not final, whatever lies ahead.
    expect(settleRecord({ dir, now, redact: (t) => t })).toEqual([]);
    // The walk reaches 3 hours on: the cell fell 5%.
    now = T0 + 3 * H + 45 * MIN;
    recorder().page([at('th_c', T0 + 3 * H - 2 * MIN, 96), at('th_d', T0 + 3 * H + 3 * MIN, 95)]);
    const written = settleRecord({ dir, now, redact: (t) => t });
    expect(written).toHaveLength(1);
    const outcome = readOutcomes(dir).outcomes.get('post\nth_post');
    expect(outcome?.right).toBe(false);
    expect(outcome?.move).toBeLessThan(-4);
  });
});
