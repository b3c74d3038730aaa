// The clocks: sandbox time runs at `speed` times real time; the fake one moves only when told.
import { describe, expect, it } from 'vitest';
import { createFakeClock, createSandboxClock } from '../../src/sandbox/clock.js';

describe('clocks', () => {
  it('runs sandbox time at speed × real elapsed from the start', () => {
    const real = createFakeClock(1_000);
    const clock = createSandboxClock({ real, speed: 60, start: 5_000_000 });
    expect(clock.now()).toBe(5_000_000);
    real.advance(1_000);
    expect(clock.now()).toBe(5_060_000);
  });

  it('starts at real now by default and refuses a speed that is not positive', () => {
    const real = createFakeClock(42);
    expect(createSandboxClock({ real }).now()).toBe(42);
    expect(() => createSandboxClock({ speed: 0 })).toThrow(RangeError);
    expect(() => createSandboxClock({ speed: Number.NaN })).toThrow(RangeError);
  });

  it('moves a fake clock forward only', () => {
    const clock = createFakeClock(0);
    expect(clock.advance(10)).toBe(10);
    expect(() => clock.advance(-1)).toThrow(RangeError);
    clock.set(5);
    expect(clock.now()).toBe(5);
  });
});
