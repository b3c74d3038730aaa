// The sandbox's own scoring rule (src/sandbox/scoring.ts): the pure function, then end to end with the
// fake clock: nothing is awarded before the lock, everything once at the lock.
import { describe, expect, it } from 'vitest';
import { DEFAULT_SIGMA as CLIENT_DEFAULT_SIGMA, sigmaOf as clientSigma } from '../../src/analysis/profile-numbers.js';
import { DEFAULT_SIGMA, MARKETS } from '../../src/sandbox/markets.js';
import { earlyBonus, scorePrediction } from '../../src/sandbox/scoring.js';
import { HOUR, MINUTE, call, predict, register, start } from './helpers.js';

describe('scorePrediction', () => {
  const base = { sigma: 1, ageMs: 0 };
  it('gives honey for the right direction, more the closer the size', () => {
    const exact = scorePrediction({ ...base, conviction: 1, actualMovePct: 1 });
    const off = scorePrediction({ ...base, conviction: 3, actualMovePct: 1 });
    expect(exact).toEqual({ honey: 20, wax: 0 });
    expect(off.honey).toBeGreaterThan(0);
    expect(off.honey).toBeLessThan(exact.honey);
    expect(off.wax).toBe(0);
  });

  it('gives more honey to early predictions, decaying to half after a long wait', () => {
    const at = (ageMs: number) => scorePrediction({ sigma: 1, ageMs, conviction: -1, actualMovePct: -1 }).honey;
    expect(at(0)).toBe(20);
    expect(at(30 * MINUTE)).toBe(Math.round(10 * (1 + Math.exp(-1))));
    expect(at(3 * HOUR)).toBe(10);
    expect(earlyBonus(0)).toBe(1);
    expect(earlyBonus(-5)).toBe(1);
    expect(earlyBonus(30 * MINUTE)).toBeCloseTo(Math.exp(-1));
  });

  it('gives wax for the wrong direction, more for a confident call, capped', () => {
    const timid = scorePrediction({ ...base, conviction: -0.1, actualMovePct: 0.5 });
    const bold = scorePrediction({ ...base, conviction: -3, actualMovePct: 0.5 });
    const wild = scorePrediction({ ...base, conviction: -300, actualMovePct: 0.5 });
    expect(timid.honey).toBe(0);
    expect(timid.wax).toBe(8);
    expect(bold.wax).toBeGreaterThan(timid.wax);
    expect(wild.wax).toBe(25);
  });

  it('awards nothing without a direction', () => {
    expect(scorePrediction({ ...base, conviction: 0, actualMovePct: 1 })).toEqual({ honey: 0, wax: 0 });
    expect(scorePrediction({ ...base, conviction: 1, actualMovePct: 0 })).toEqual({ honey: 0, wax: 0 });
  });

  it('measures the size error in multiples of the cell σ', () => {
    const calm = scorePrediction({ sigma: 0.9, ageMs: HOUR, conviction: 1.8, actualMovePct: 0.9 });
    const wild = scorePrediction({ sigma: 2, ageMs: HOUR, conviction: 1.8, actualMovePct: 0.9 });
    expect(wild.honey).toBeGreaterThan(calm.honey);
  });
});

describe('scoring at lock', () => {
  it('updates honey and wax when the thread locks, not before, and only once', async () => {
    const { url, sandbox, clock } = await start();
    sandbox.addThread({ id: 'up', project_id: 'c/bitcoin', movePct: 0.9 });
    const right = await register(url, 'right-bee');
    const wrong = await register(url, 'wrong-bee');
    clock.advance(10 * MINUTE);
    expect((await predict(url, right.key, 'up', 0.9)).status).toBe(201);
    expect((await predict(url, wrong.key, 'up', -1.8)).status).toBe(201);

    clock.advance(3 * HOUR - 10 * MINUTE - 1);
    const before = (await call(url, 'GET', '/agent/me', { key: right.key })).body;
    expect([before.honey, before.wax]).toEqual([0, 0]);

    clock.advance(1);
    const expectedHoney = scorePrediction({
      conviction: 0.9,
      actualMovePct: 0.9,
      sigma: 0.9,
      ageMs: 10 * MINUTE,
    }).honey;
    const expectedWax = scorePrediction({ conviction: -1.8, actualMovePct: 0.9, sigma: 0.9, ageMs: 10 * MINUTE }).wax;
    const winner = (await call(url, 'GET', '/agent/me', { key: right.key })).body;
    const loser = (await call(url, 'GET', '/agent/me', { key: wrong.key })).body;
    expect([winner.honey, winner.wax, winner.total_comments]).toEqual([expectedHoney, 0, 1]);
    expect([loser.honey, loser.wax]).toEqual([0, expectedWax]);
    expect(expectedHoney).toBeGreaterThan(10);
    expect(expectedWax).toBe(20);

    clock.advance(5 * HOUR);
    sandbox.tick();
    expect((await call(url, 'GET', '/agent/me', { key: right.key })).body.honey).toBe(expectedHoney);
    expect(sandbox.comments().map((c) => [c.honey, c.wax])).toEqual([
      [expectedHoney, 0],
      [0, expectedWax],
    ]);
  });

  it('scores a thread locked by hand at once', async () => {
    const { url, sandbox } = await start();
    sandbox.addThread({ id: 'down', project_id: 'c/ethereum', movePct: -1.2 });
    const { key } = await register(url, 'hand-bee');
    await predict(url, key, 'down', -1.2);
    sandbox.lockThread('down');
    expect((await call(url, 'GET', '/agent/me', { key })).body.honey).toBe(20);
  });

  it('scores on the timer-free tick() as well as on requests', async () => {
    const { url, sandbox, clock } = await start();
    sandbox.addThread({ id: 'quiet', project_id: 'c/unknown-cell', movePct: 2 });
    const { key } = await register(url, 'tick-bee');
    await predict(url, key, 'quiet', 2);
    clock.advance(3 * HOUR);
    sandbox.tick();
    expect(sandbox.comments()[0]?.honey).toBe(20);
  });
});

describe('σ', () => {
  it('every sandbox market moves with the σ the client sizes by (docs/analyzer.md#how-the-analyzer-decides), so backtest and sandbox score alike', () => {
    for (const market of MARKETS) expect([market.cell, market.sigma]).toEqual([market.cell, clientSigma(market.cell)]);
    expect(DEFAULT_SIGMA).toBe(CLIENT_DEFAULT_SIGMA);
  });
});
