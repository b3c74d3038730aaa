// `agent sandbox --export <file>`: the sandbox's resolved threads, in the format `agent backtest` reads.
import { writeFileAtomic } from '../state/private-file.js';
import { createFakeClock, HOUR_MS, MINUTE_MS } from './clock.js';
import type { ResolvedThread, Sandbox } from './sandbox-types.js';
import { createSandbox } from './server.js';

export interface HistoryOptions {
  seed: number;
  ratePerMinute: number;
  backlog: number;
  statePath?: string;
  /** Hours of sandbox time the feed runs before `now`. */
  historyHours: number;
  now: number;
}

/** Feed threads per step of the clock: well under the feed's catch-up limit, so no slot is dropped. */
const THREADS_PER_STEP = 100;

/**
 * The sandbox as it would stand at `now` had it run for `historyHours` before: a fake clock is moved
 * forward in steps, so threads are created, locked and scored exactly as in a running sandbox, only in
 * milliseconds. A stored state is read, never written. A state written at --speed 240 holds timestamps
 * ahead of real time: the clock then ends at the newest of them, the earliest instant that state allows.
 */
export function sandboxWithHistory(options: HistoryOptions): Sandbox {
  const clock = createFakeClock(options.now - options.historyHours * HOUR_MS);
  const sandbox = createSandbox({
    seed: options.seed,
    ratePerMinute: options.ratePerMinute,
    backlog: options.backlog,
    statePath: options.statePath,
    readOnly: true,
    clock,
  });
  const step =
    options.ratePerMinute > 0 ? Math.min(HOUR_MS, (THREADS_PER_STEP * MINUTE_MS) / options.ratePerMinute) : HOUR_MS;
  while (clock.now() < options.now) {
    clock.set(Math.min(options.now, clock.now() + step));
    sandbox.tick();
  }
  const newest = sandbox.store.threads().at(-1)?.timestampMs ?? options.now;
  if (newest > clock.now()) {
    clock.set(newest);
    sandbox.tick();
  }
  return sandbox;
}

/**
 * Writes `{"threads": [...]}` atomically (a temp file in the same directory, flushed, then renamed), so
 * a backtest never reads half a file. It holds no secret: the file gets the usual mode.
 */
export function writeResolvedThreads(path: string, threads: readonly ResolvedThread[]): void {
  writeFileAtomic(path, `${JSON.stringify({ threads }, null, 2)}\n`, { mode: 0o666 });
}
