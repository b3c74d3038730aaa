import type { WatchLimits } from '../context.js';
import { COMMAND_BUDGET_MS } from '../domain/budget.js';

/**
 * A poll every 30 s is already 2,880 runs a day. A cycle ends within its run budget; the minute after it
 * is for the analyzer's grace, the history and a busy machine.
 */
export const WATCH_LIMITS: WatchLimits = {
  minIntervalS: 30,
  cycleMs: COMMAND_BUDGET_MS + 60_000,
  // systemd sends SIGKILL 90 s after SIGTERM: this, and a POST's 15 s at most, stay under it.
  stopGraceMs: 60_000,
};

/** The longest `--interval`, in seconds: a day. */
export const MAX_INTERVAL_S = 86_400;

/** The longest a watcher's marker may keep cron away after its latest cycle began, whatever it claims. */
export const MAX_OVERDUE_MS = MAX_INTERVAL_S * 1000 + WATCH_LIMITS.cycleMs;
