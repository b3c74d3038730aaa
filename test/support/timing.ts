import type { Timing } from '../../src/domain/clock.js';

export const T0 = Date.parse('2025-06-01T12:00:00.000Z');

export interface FakeTiming extends Timing {
  /** Every sleep asked for, in order. */
  readonly sleeps: number[];
  advance(ms: number): void;
}

/** A clock that moves only when told to or when slept on: sleep advances it and resolves at once. */
export function fakeTiming(options: { start?: number; random?: number } = {}): FakeTiming {
  let now = options.start ?? T0;
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => now,
    random: () => options.random ?? 0.5,
    async sleep(ms) {
      sleeps.push(ms);
      now += ms;
    },
    advance(ms) {
      now += ms;
    },
  };
}
