// A post's outcome from the price series: nearest within 15 minutes, or two bracketing samples 30 minutes
// apart at most; never decided while a better price may come; unknowable after 6 hours without one.
import { describe, expect, it } from 'vitest';
import { FLAT_PCT, priceAt, resolveThread, rightOf } from '../../src/record/resolve.js';
import type { Sample } from '../../src/record/samples.js';
import { buildSeries } from '../../src/record/series.js';

const T0 = Date.parse('2025-06-01T12:00:00.000Z');
const MIN = 60_000;
const H = 60 * MIN;
const TARGET = T0 + 3 * H;
let n = 0;
const s = (ms: number, price: number, cell = 'bitcoin'): Sample => ({ threadId: `s${n++}`, cell, ms, price });

describe('priceAt', () => {
  it('interpolates between two samples at most 30 minutes apart around the target', () => {
    const before = s(TARGET - 10 * MIN, 100);
    const after = s(TARGET + 20 * MIN, 103);
    const at = priceAt([before, after], TARGET, TARGET + 20 * MIN);
    expect(at).toEqual({ status: 'priced', price: 101, samples: [before, after] });
  });

  it('takes a sample exactly at the target as it is', () => {
    const exact = s(TARGET, 99);
    expect(priceAt([s(TARGET - 40 * MIN, 1), exact, s(TARGET + 50 * MIN, 2)], TARGET, TARGET + H)).toEqual({
      status: 'priced',
      price: 99,
      samples: [exact],
    });
  });

  it('takes the nearest sample within 15 minutes when none brackets the target closely enough', () => {
    const near = s(TARGET + 12 * MIN, 105);
    expect(priceAt([s(TARGET - 40 * MIN, 100), near], TARGET, TARGET + 12 * MIN)).toEqual({
      status: 'priced',
      price: 105,
      samples: [near],
    });
  });

  it('waits while a better price may still come: a sample before the target alone is final once none can bracket it', () => {
    const before = s(TARGET - 5 * MIN, 100);
    expect(priceAt([before], TARGET, TARGET + 24 * MIN)).toEqual({ status: 'pending' });
    expect(priceAt([before], TARGET, TARGET + 25 * MIN)).toEqual({ status: 'priced', price: 100, samples: [before] });
  });

  it('is unknowable once the series runs 6 hours past the target with nothing near it', () => {
    const far = [s(TARGET - 40 * MIN, 100), s(TARGET + 50 * MIN, 101)];
    expect(priceAt(far, TARGET, TARGET + 5 * H)).toEqual({ status: 'pending' });
    expect(priceAt(far, TARGET, TARGET + 6 * H)).toMatchObject({ status: 'unresolvable' });
    expect(priceAt([], TARGET, TARGET + 6 * H)).toMatchObject({ status: 'unresolvable' });
  });
});

describe('resolveThread', () => {
  it("measures the move from the thread's own price, 3 decimals, and names the samples used", () => {
    const own = s(T0, 200);
    const later = s(TARGET + MIN, 201.5);
    const series = buildSeries([own, s(T0 + H, 190), later, s(TARGET - MIN, 201.5)]);
    const resolved = resolveThread(series, own.threadId, 'bitcoin');
    expect(resolved).toMatchObject({ status: 'resolved', move: 0.75, p0: 200, t0: T0, p3h: 201.5 });
    expect(resolved.status === 'resolved' && resolved.samples.map((x) => x.threadId)).toHaveLength(2);
  });

  it('says so when the thread had no price, or its own price looks wrong', () => {
    const own = s(T0, 200);
    expect(resolveThread(buildSeries([s(T0, 1)]), 'missing', 'bitcoin')).toMatchObject({
      status: 'unresolvable',
      reason: expect.stringMatching(/no usable price/),
    });
    const absurd = s(T0 + MIN, 20_000);
    const series = buildSeries([own, absurd, s(T0 + 2 * MIN, 201), s(TARGET, 202)]);
    expect(resolveThread(series, absurd.threadId, 'bitcoin')).toMatchObject({
      status: 'unresolvable',
      reason: expect.stringMatching(/over 50% away from the cell's level/),
    });
  });
});

describe('buildSeries', () => {
  it('leaves out a price that jumps by over half from every neighbour minutes away, and says which', () => {
    const good = [s(T0, 100), s(T0 + 5 * MIN, 101), s(T0 + 15 * MIN, 102)];
    const bad = s(T0 + 10 * MIN, 0.01);
    const series = buildSeries([...good, bad]);
    expect(series.cells.get('bitcoin')).toEqual(good);
    expect([...series.suspect]).toEqual([bad.threadId]);
  });

  it('keeps a real move: under half from the last price kept, or after hours without one', () => {
    const list = [s(T0, 100), s(T0 + 5 * MIN, 140), s(T0 + 6 * MIN, 200), s(T0 + 7 * H, 400)];
    expect(buildSeries(list).cells.get('bitcoin')).toHaveLength(4);
  });

  it('trusts neither of two neighbours that disagree by a jump: a bad price never decides silently', () => {
    const series = buildSeries([s(T0, 100), s(T0 + MIN, 1000)]);
    expect(series.cells.get('bitcoin')).toEqual([]);
  });

  it('keeps one sample a thread, orders by time, and knows the newest', () => {
    const a = s(T0 + 2 * MIN, 1);
    const b = s(T0, 1, 'solana');
    const series = buildSeries([a, b, { ...a, price: 1.1 }]);
    expect(series.cells.get('bitcoin')).toEqual([a]);
    expect(series.newestMs).toBe(T0 + 2 * MIN);
  });
});

describe('rightOf', () => {
  it('is right with the same sign, wrong against it, and neither when the move is flat', () => {
    expect(rightOf(1.2, 0.3)).toBe(true);
    expect(rightOf(-1.2, 0.3)).toBe(false);
    expect(rightOf(1.2, FLAT_PCT / 2)).toBeNull();
    expect(rightOf(-0.5, -FLAT_PCT)).toBe(true);
  });
});

describe('absurd prices', () => {
  const id = (sample: Sample, threadId: string): Sample => ({ ...sample, threadId });

  it('does not let two agreeing absurd samples, far from the last good price, set an outcome', () => {
    const own = id(s(T0, 100), 'P');
    const series = buildSeries([own, s(TARGET - MIN, 1e15), s(TARGET + MIN, 1e15), s(TARGET + 7 * H, 100)]);
    const resolved = resolveThread(series, 'P', 'bitcoin');
    expect(resolved).toMatchObject({ status: 'unresolvable' });
  });

  it('keeps a good sample that absurd ones outnumber, and names the ones it dropped', () => {
    const own = id(s(T0, 100, 'ethereum'), 'Q');
    const good = s(TARGET - MIN, 100.01, 'ethereum');
    const bad = [s(TARGET + MIN, 1e-7, 'ethereum'), s(TARGET + 2 * MIN, 1e-7, 'ethereum')];
    const series = buildSeries([own, good, ...bad, s(TARGET + 40 * MIN, 100.2, 'ethereum')]);
    expect(resolveThread(series, 'Q', 'ethereum')).toMatchObject({
      status: 'resolved',
      move: 0.01,
      samples: [good],
      dropped: bad,
    });
  });

  it('drops a lone sample that jumps by over 50% from the last good price minutes before', () => {
    const own = id(s(T0, 100), 'L');
    const series = buildSeries([own, s(TARGET - 40 * MIN, 101), s(TARGET + 2 * MIN, 300), s(TARGET + 7 * H, 101)]);
    expect(resolveThread(series, 'L', 'bitcoin')).toMatchObject({ status: 'unresolvable' });
  });

  it('records no move beyond what the checks allow, saying why', () => {
    // Each step is within the checks, the whole is not a 3-hour move of a market.
    const own = id(s(T0, 100), 'C');
    const steps = [s(T0 + H, 140), s(T0 + 2 * H, 190), s(TARGET, 190), s(TARGET + H, 190)];
    expect(resolveThread(buildSeries([own, ...steps]), 'C', 'bitcoin')).toMatchObject({
      status: 'unresolvable',
      reason: expect.stringMatching(/50%/),
    });
  });
});
