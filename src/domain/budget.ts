import { BudgetError } from '../errors.js';

// The run budget (bounded, docs/guarantees.md): every constant and every deadline check of a run, in one place.
// Deadlines are epoch ms on the run's clock; `now` is passed in, never read here.

/**
 * Every command ends within this, whatever the network does (bounded): well under the 5-minute cron interval,
 * with room for one 60 s rate-limit pause. A rate limit that lasts longer is not waited out.
 */
export const COMMAND_BUDGET_MS = 150_000;

/** `agent doctor` is a quick look: its two requests get this much, not a whole run's budget. */
export const DOCTOR_BUDGET_MS = 20_000;

/** What a slow analyzer leaves of a run's budget for the posts that follow it (twice the least a POST is sent with). */
export const POST_RESERVE_MS = 10_000;

/** A page is asked for only with this much of the run left: for the request and the posts it brings. */
export const PAGE_RESERVE_MS = 2 * POST_RESERVE_MS;

/** A command analyzer has this after SIGTERM before SIGKILL, and this again after exit for its pipes to close. */
export const TERM_GRACE_MS = 1_000;

/** A command analyzer that ignores SIGTERM at its timeout is killed, and its pipes closed, within this. */
export const KILL_GRACE_MS = 2 * TERM_GRACE_MS;

/** The least time a POST or PATCH is sent with. */
export const MIN_WRITE_BUDGET_MS = 5_000;

/** One request's timeout, cut to what is left of the run. */
export const REQUEST_TIMEOUT_MS = 15_000;

/**
 * A request that only asks whether something answers (register's reach check, doctor's model server): a
 * person is waiting, and an address that has not answered by then is not worth more.
 */
export const PROBE_TIMEOUT_MS = 5_000;

/** A command analyzer is not started with less than this left. */
export const MIN_ANALYZER_MS = 1_000;

/** The deadline of a command started at `now`. */
export function commandDeadline(now: number): number {
  return now + COMMAND_BUDGET_MS;
}

/** The deadline of `agent doctor`, started at `now`. */
export function doctorDeadline(now: number): number {
  return now + DOCTOR_BUDGET_MS;
}

/** The deadline an analyzer gets: the run's, less what its posts need. */
export function analyzerDeadline(deadline: number): number {
  return deadline - POST_RESERVE_MS;
}

/** Whether another page may be asked for. */
export function mayAskPage(deadline: number, now: number): boolean {
  return deadline - now >= PAGE_RESERVE_MS;
}

/** Whether an analyzer that may take its whole `timeoutMs` can still run and leave room for its posts. */
export function maySlowAnalyze(deadline: number, now: number, timeoutMs: number): boolean {
  return now + timeoutMs + KILL_GRACE_MS + POST_RESERVE_MS <= deadline;
}

/** A command analyzer's timeout, cut to the deadline; `BudgetError` when too little is left to start it. */
export function analyzerTimeout(deadline: number, now: number, timeoutMs: number): number {
  const left = deadline - now - KILL_GRACE_MS;
  if (left < MIN_ANALYZER_MS) throw new BudgetError();
  return Math.min(timeoutMs, left);
}

/**
 * Whether a request may still be sent with `left` ms: a GET while any time is left, a write only with
 * `MIN_WRITE_BUDGET_MS`, since one sent with a second left would time out after leaving.
 */
export function maySend(method: string, left: number): boolean {
  return left > (method === 'GET' ? 0 : MIN_WRITE_BUDGET_MS);
}

/**
 * Each alert route (a command, a webhook, the heartbeat) has this in all, and they run side by side: a
 * route that hangs costs a poll this once, and nothing else.
 */
export const ALERT_LIMIT_MS = 5_000;

/** An alert command has this after SIGTERM before SIGKILL to its process group, inside ALERT_LIMIT_MS. */
export const ALERT_TERM_GRACE_MS = 250;
