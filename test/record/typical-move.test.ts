// A cell's typical 3-hour move, measured from recorded prices: close to the truth with enough of them,
// nothing without.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { decide } from '../../src/analysis/policy.js';
import { analyzerInput } from '../../src/analysis/protocol.js';
import type { Signal } from '../../src/analysis/types.js';
import { appendLines } from '../../src/record/private-lines.js';
import { pricesFile, readAtLine, type Sample, sampleLine } from '../../src/record/samples.js';
import { loadTypicalMoves, MIN_PAIRS, measureTypicalMoves } from '../../src/record/typical-move.js';
import { pricePath } from '../../src/sandbox/price-path.js';
import { thread } from '../support/threads.js';

const NOW = Date.parse('2026-11-25T12:00:00.000Z');
const MIN = 60_000;
const H = 60 * MIN;
const DAY = 24 * H;

/** A cell's recorded prices: one thread every `every` ms over `span`, priced on the sandbox's path for it. */
function recorded(cell: string, span: number, every: number, seed = 5): Sample[] {
  const path = pricePath(seed, cell);
  const out: Sample[] = [];
  for (let ms = NOW - span; ms <= NOW; ms += every)
    out.push({ threadId: `${cell}-${ms}`, cell, ms, price: Math.round(path.at(ms) * 100) / 100 });
  return out;
}

describe('measureTypicalMoves', () => {
  it("measures each cell's 3-hour moves: near the path's σ with a week of prices", () => {
    const moves = measureTypicalMoves(
      [...recorded('bitcoin', 7 * DAY, 4 * MIN), ...recorded('arbitrum', 7 * DAY, 9 * MIN)],
      NOW,
    );
    // 15-minute spacing over 7 days less the last 3 hours: ~660 pairs each.
    expect(moves.get('bitcoin')!.pairs).toBeGreaterThan(600);
    expect(moves.get('bitcoin')!.pct).toBeGreaterThan(0.9 * 0.75);
    expect(moves.get('bitcoin')!.pct).toBeLessThan(0.9 * 1.25);
    expect(moves.get('arbitrum')!.pct).toBeGreaterThan(2.0 * 0.75);
    expect(moves.get('arbitrum')!.pct).toBeLessThan(2.0 * 1.25);
  });

  it('needs 30 three-hour pairs starting 15 minutes apart: a burst of threads is not many moves', () => {
    // 10 hours of a thread a minute: 600 prices, but only (10 - 3) × 4 = 28 pairs that far apart.
    expect(measureTypicalMoves(recorded('solana', 10 * H, MIN), NOW).has('solana')).toBe(false);
    const enough = measureTypicalMoves(recorded('solana', 11 * H, MIN), NOW).get('solana');
    expect(enough?.pairs).toBeGreaterThanOrEqual(MIN_PAIRS);
  });

  it('uses only the last 7 days, and nothing from prices that never move', () => {
    const old = recorded('ethereum', 20 * DAY, 10 * MIN).filter((s) => s.ms < NOW - 8 * DAY);
    expect(measureTypicalMoves(old, NOW).has('ethereum')).toBe(false);
    const flat = recorded('xrp', 3 * DAY, 10 * MIN).map((s) => ({ ...s, price: 2.3 }));
    expect(measureTypicalMoves(flat, NOW).has('xrp')).toBe(false);
  });
});

describe('loadTypicalMoves', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('reads the recorded prices back a week, no further', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'record-typical-'));
    dirs.push(dir);
    const week = recorded('bitcoin', 7 * DAY, 5 * MIN);
    for (let i = 0; i < week.length; i += 12) {
      const batch = week.slice(i, i + 12);
      appendLines(
        pricesFile(dir),
        `${readAtLine(batch.at(-1)!.ms)}\n${batch.map((s) => `${sampleLine(s)}\n`).join('')}`,
      );
    }
    const direct = measureTypicalMoves(week, NOW).get('bitcoin');
    expect(loadTypicalMoves(dir, NOW).get('bitcoin')).toEqual(direct);
    // A thread read again later with another price keeps the first one it was recorded with.
    const again = week.filter((_, i) => i % 5 === 0).map((s) => ({ ...s, price: s.price * 1.2 }));
    appendLines(pricesFile(dir), `${readAtLine(NOW)}\n${again.map((s) => `${sampleLine(s)}\n`).join('')}`);
    expect(loadTypicalMoves(dir, NOW).get('bitcoin')).toEqual(direct);
    // A week later, that week is behind the span: nothing measured, nothing read but the last batch.
    expect(loadTypicalMoves(dir, NOW + 8 * DAY).has('bitcoin')).toBe(false);
  });
});

describe('sizing with a measured typical move', () => {
  const profile = {
    signal_method: 'sentiment',
    conviction_style: 'moderate',
    directional_bias: 'neutral',
    participation: 'active',
  } as const;
  const signal: Signal = { kind: 'signal', strength: 0.9, evidence: [{ phrase: 'ETF inflows', weight: 0.9 }] };

  it('sizes by the measured move and says so in the trace; the written one otherwise', () => {
    const written: string[] = [];
    const plain = decide(thread('t', '2026-11-25T11:00:00Z'), profile, signal, written);
    const measuredTrace: string[] = [];
    const sized = decide(
      { ...thread('t', '2026-11-25T11:00:00Z'), typicalMove: { pct: 2.7, pairs: 212 } },
      profile,
      signal,
      measuredTrace,
    );
    expect(written[0]).toContain('c/bitcoin σ 0.9%');
    expect(measuredTrace[0]).toContain('typical 3h move 2.7%, measured from 212 prices');
    expect(plain.action === 'post' && sized.action === 'post').toBe(true);
    if (plain.action === 'post' && sized.action === 'post')
      expect(sized.conviction / plain.conviction).toBeCloseTo(3, 0);
  });

  it("gives an external analyzer the measured move as the cell's typical_move_pct", () => {
    const t = { ...thread('t', '2026-11-25T11:00:00Z'), typicalMove: { pct: 2.7, pairs: 212 } };
    expect(analyzerInput(t, profile).cell).toEqual({ name: 'bitcoin', typical_move_pct: 2.7 });
    expect(analyzerInput(thread('t', '2026-11-25T11:00:00Z'), profile).cell.typical_move_pct).toBe(0.9);
  });
});

describe('a bad price cannot make a post absurdly large', () => {
  const profile = {
    signal_method: 'sentiment',
    conviction_style: 'degen',
    directional_bias: 'neutral',
    participation: 'active',
  } as const;
  const signal: Signal = { kind: 'signal', strength: 0.9, evidence: [{ phrase: 'ETF inflows', weight: 0.9 }] };

  it('two absurd prices among a week of good ones hardly move the measure', () => {
    const week = recorded('bitcoin', 7 * DAY, 5 * MIN);
    const good = measureTypicalMoves(week, NOW).get('bitcoin')!.pct;
    const middle = Math.floor(week.length / 2);
    const spoiled = week.map((s, i) => (i === middle || i === middle + 1 ? { ...s, price: 1e12 } : s));
    const bad = measureTypicalMoves(spoiled, NOW).get('bitcoin')!.pct;
    expect(bad).toBeLessThan(good * 1.1);
  });

  it('a measured move is held within 3x of the written one, and the trace says so', () => {
    const trace: string[] = [];
    const huge = { ...thread('t', '2026-11-25T11:00:00Z'), typicalMove: { pct: 6e10, pairs: 600 } };
    const decision = decide(huge, profile, signal, trace);
    expect(decision.action).toBe('post');
    // bitcoin's written σ is 0.9%: held to 2.7%, and degen's top of range times that.
    if (decision.action === 'post') expect(Math.abs(decision.conviction)).toBeLessThanOrEqual(2.7 * 5);
    expect(trace[0]).toMatch(/held to 2\.7% \(at most 3× the written 0\.9% either way\)/);
    expect(analyzerInput(huge, profile).cell.typical_move_pct).toBe(2.7);
    const tiny = { ...thread('t', '2026-11-25T11:00:00Z'), typicalMove: { pct: 0.01, pairs: 600 } };
    expect(analyzerInput(tiny, profile).cell.typical_move_pct).toBe(0.3);
  });
});
