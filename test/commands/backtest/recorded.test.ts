// The threads a backtest --recorded replays: the recorded open ones with a realized move, as a file's.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { backtestRecorded, recordedThreads } from '../../../src/commands/backtest/recorded.js';
import { StateError } from '../../../src/errors.js';
import { appendLines } from '../../../src/record/private-lines.js';
import { pricesFile, readAtLine, sampleLine } from '../../../src/record/samples.js';
import { recordedThreadLine, threadsFile } from '../../../src/record/thread-texts.js';
import { offlineContext } from '../../support/context.js';
import { thread } from '../../support/threads.js';
import { T0 } from '../../support/timing.js';

const MIN = 60_000;
const H = 60 * MIN;
const DAY = 24 * H;
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});
const iso = (ms: number) => new Date(ms).toISOString();

/** A config dir whose record holds these threads (read when created) and bitcoin's price every 10 minutes. */
function recordedDir(
  threads: Array<[id: string, ms: number, text: string]>,
  price: (ms: number) => number,
  from: number,
) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'record-backtest-'));
  dirs.push(dir);
  for (const [id, ms, text] of threads)
    appendLines(
      threadsFile(dir),
      `${recordedThreadLine(thread(id, iso(ms), { text, priceOnFetch: price(ms) }), ms)}\n`,
    );
  let lines = '';
  for (let ms = from; ms <= T0; ms += 10 * MIN)
    lines += `${readAtLine(ms)}\n${sampleLine({ threadId: `s${ms}`, cell: 'bitcoin', ms, price: price(ms) })}\n`;
  for (const [id, ms] of threads)
    lines += `${readAtLine(ms)}\n${sampleLine({ threadId: id, cell: 'bitcoin', ms, price: price(ms) })}\n`;
  appendLines(pricesFile(dir), lines);
  return dir;
}

const BULL = 'Spot ETF inflows hit $500M as whales withdraw 10,000 BTC from exchanges; breakout above resistance.';
const rising = (ms: number) => 50_000 * (1 + (ms - (T0 - 30 * DAY)) / (30 * DAY));

describe('recordedThreads', () => {
  it('gives each recorded thread since then its price 3 hours on, and counts those still waiting', () => {
    const dir = recordedDir(
      [
        ['old', T0 - 40 * DAY, BULL],
        ['a', T0 - 2 * DAY + 5 * MIN, BULL],
        ['b', T0 - DAY + 5 * MIN, BULL],
        ['waiting', T0 - H, BULL],
      ],
      rising,
      T0 - 3 * DAY,
    );
    const { file, pending, unresolvable } = recordedThreads(dir, T0 - 30 * DAY);
    expect(file.threads.map((t) => t.id)).toEqual(['a', 'b']);
    expect([pending, unresolvable]).toEqual([1, 0]);
    const a = file.threads[0]!;
    expect(a.price_on_eval).toBeCloseTo(rising(a.timestampMs + 3 * H), 1);
  });

  it('says why there is nothing to replay', () => {
    const dir = recordedDir([['waiting', T0 - H, BULL]], rising, T0 - 2 * H);
    expect(() => recordedThreads(dir, T0 - DAY)).toThrow(
      /none of the 1 recorded since then has a realized move yet \(1 pending/,
    );
    expect(() => recordedThreads(dir, T0 - 10 * MIN)).toThrow(/none was recorded in that time/);
  });

  it("takes --since as when a thread was recorded, not as the thread's own time", () => {
    // A poll after a gap reads threads made hours before: recorded an hour ago, they are "since 2h".
    const dir = recordedDir([], rising, T0 - 2 * DAY);
    const made = T0 - 6 * H;
    appendLines(
      threadsFile(dir),
      `${recordedThreadLine(thread('late', iso(made), { text: BULL, priceOnFetch: rising(made) }), T0 - H)}\n`,
    );
    appendLines(
      pricesFile(dir),
      `${readAtLine(T0 - H)}\n${sampleLine({ threadId: 'late', cell: 'bitcoin', ms: made, price: rising(made) })}\n`,
    );
    expect(recordedThreads(dir, T0 - 2 * H).file.threads.map((t) => t.id)).toEqual(['late']);
  });

  it.each([
    ['a directory', (file: string) => fs.mkdirSync(file)],
    ['a symbolic link', (file: string) => fs.symlinkSync('/etc/hostname', file)],
  ])('says what is wrong with a prices file that is %s, and how to fix it', (what, make) => {
    const dir = recordedDir([['a', T0 - DAY, BULL]], rising, T0 - 2 * DAY);
    const file = path.join(dir, 'prices.jsonl');
    fs.rmSync(file);
    make(file);
    let error: unknown;
    try {
      recordedThreads(dir, T0 - 30 * DAY);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(StateError);
    expect((error as StateError).message).toContain(`${file} is ${what}`);
    expect((error as StateError).hint).toContain(`mv '${file}'`);
  });
});

describe('backtestRecorded', () => {
  it('sizes each post by the typical move known before its day: none on the first, the measured one later', async () => {
    // Ten days of a bitcoin swinging 3% every 3 hours; one thread on the first day, one on the last.
    const swing = (ms: number) => 90_000 * (1 + 0.02 * Math.sin((2 * Math.PI * ms) / (6 * H)));
    const first = T0 - 10 * DAY + H;
    const dir = recordedDir(
      [
        ['first', first, BULL],
        ['last', T0 - 5 * H, BULL],
      ],
      swing,
      T0 - 10 * DAY,
    );
    const { ctx, stdout } = offlineContext(dir, { json: true });
    await backtestRecorded({ since: '30d', participation: 'active' }, ctx);
    const report = JSON.parse(stdout.text);
    const sizes = Object.fromEntries(
      report.threads.map((t: { threadId: string; conviction: number }) => [t.threadId, Math.abs(t.conviction)]),
    );
    // Moderate on bitcoin's written 0.9%: at most 1.3. A week of 3% swings before the last day: far more.
    expect(sizes.first).toBeLessThanOrEqual(1.3);
    expect(sizes.last).toBeGreaterThan(1.3);
    expect(report.recorded).toMatchObject({ threads: 2, pending: 0, unresolvable: 0, ran: { posted: 0 } });
  });
});
