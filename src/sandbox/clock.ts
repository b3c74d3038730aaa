// Time in the sandbox is injectable so that locking and scoring (3 hours of sandbox time) can be tested
// without waiting, and so that a demo can run faster than real time.

/** A source of time in epoch milliseconds. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

export interface SandboxClockOptions {
  /** Sandbox time at the moment the clock is created; default: real now. */
  start?: number;
  /** Sandbox milliseconds per real millisecond; default 1. */
  speed?: number;
  /** The real clock it is driven by; default the system clock. */
  real?: Clock;
}

/** Sandbox time = start + real elapsed × speed. */
export function createSandboxClock(options: SandboxClockOptions = {}): Clock {
  const real = options.real ?? systemClock;
  const speed = options.speed ?? 1;
  if (!Number.isFinite(speed) || speed <= 0) throw new RangeError(`speed must be a positive number, got ${speed}`);
  const realStart = real.now();
  const start = options.start ?? realStart;
  return { now: () => start + (real.now() - realStart) * speed };
}

/** A clock that only moves when a test moves it. */
export interface FakeClock extends Clock {
  advance(ms: number): number;
  set(ms: number): void;
}

export function createFakeClock(start = Date.UTC(2025, 0, 6, 12, 0, 0)): FakeClock {
  let current = start;
  return {
    now: () => current,
    advance(ms) {
      if (!Number.isFinite(ms) || ms < 0) throw new RangeError('a fake clock only moves forward');
      current += ms;
      return current;
    },
    set(ms) {
      current = ms;
    },
  };
}

export const MINUTE_MS = 60_000;
export const HOUR_MS = 60 * MINUTE_MS;
