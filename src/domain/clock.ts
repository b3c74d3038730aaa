// The clock a run reads, passed in as a dependency (never read from a global): real, or fast-forwarded in tests.

export interface Timing {
  now(): number;
  /** Resolves after `ms`, or as soon as `signal` aborts (its timer then holds the process no longer). */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  random(): number;
}

/** The real clock: the one every run uses, outside the test build. */
export const realTiming: Timing = {
  now: () => Date.now(),
  sleep: (ms: number, signal?: AbortSignal) =>
    new Promise<void>((resolve) => {
      if (signal?.aborted) return resolve();
      const timer = setTimeout(done, ms);
      signal?.addEventListener('abort', done, { once: true });
      function done() {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        resolve();
      }
    }),
  random: Math.random,
};

// For end-to-end tests of rate limits (the test build only): a wait of 60 s passes at once, and the clock
// jumps by as much, so every deadline and stored pause stays consistent.
export function fastForwardTiming(): Timing {
  let skipped = 0;
  return {
    now: () => Date.now() + skipped,
    sleep: async (ms: number) => {
      skipped += ms;
    },
    random: Math.random,
  };
}

// For end-to-end tests of what takes a day (the test build only): the run's clock reads this far ahead,
// so that one run can be "tomorrow" for everything it compares and writes.
export function aheadTiming(timing: Timing, aheadMs: number): Timing {
  return { ...timing, now: () => timing.now() + aheadMs };
}
