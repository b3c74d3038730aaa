import { EXIT } from '../errors.js';
import { readHistory } from './log.js';
import type { HistoryEntry, RunSummary } from './entry.js';

/** Temporary failures (network, 5xx, rate limit: exit 5) in a row before an agent counts as failing. */
export const FAILING_AFTER_RUNS = 3;

/**
 * Whether an agent's polls work, from its newest poll runs. One rule for the `failing` alert and for
 * `agent list`, so the two never disagree.
 */
export type Health =
  | { state: 'unknown' }
  | { state: 'ok'; last: PollRun }
  | { state: 'failing'; last: PollRun; since: string; runs: number; reason: string };

export interface PollRun {
  ts: string;
  summary: RunSummary;
}

/**
 * `runs` newest first. Failing: the newest run ended with an error that will not pass by itself (a
 * rejected key, a broken state or config, a usage error: exit 1, 2 or 3), or the newest
 * FAILING_AFTER_RUNS runs all failed for a temporary reason. A run stopped by a signal (130) says nothing
 * either way and is passed over.
 */
export function healthOf(runs: readonly PollRun[]): Health {
  const told = runs.filter((run) => run.summary.exitCode !== EXIT.interrupted);
  const [last] = told;
  if (!last) return { state: 'unknown' };
  if (last.summary.exitCode === EXIT.ok) return { state: 'ok', last };
  const good = told.findIndex((run) => run.summary.exitCode === EXIT.ok);
  const streak = good === -1 ? told : told.slice(0, good);
  const failed = streak.length;
  const since = streak[failed - 1]?.ts ?? last.ts;
  const reason = last.summary.error ?? `exit ${last.summary.exitCode}`;
  if (!isTemporary(last.summary.exitCode) || failed >= FAILING_AFTER_RUNS)
    return { state: 'failing', last, since, runs: failed, reason };
  return { state: 'ok', last };
}

function isTemporary(exitCode: number): boolean {
  return exitCode === EXIT.temporary || exitCode === EXIT.locked;
}

/** How many newest poll runs `healthOf` may need, with the signal-stopped ones among them. */
const RUNS_READ = 20;

/** The health of the agent whose config dir this is, from its history (read newest first, bounded). */
export function readHealth(configDir: string): Health {
  const { records } = readHistory(configDir, { limit: RUNS_READ, keep: isPollRun });
  return healthOf(records.flatMap(({ ts, summary }) => (summary ? [{ ts, summary }] : [])));
}

function isPollRun(record: HistoryEntry): boolean {
  return record.kind === 'run' && record.summary?.command === 'poll';
}

/**
 * How long after the last poll a schedule of `everyMinutes` is late: one run missed is nothing (a poll that
 * found another busy records nothing); two, plus the longest a run takes, is a schedule that does not run
 * (a stopped cron daemon, a removed timer). Without an interval, an hour. Doctor warns, and `agent list`
 * counts the agent failing, by this one rule.
 */
export function lateAfterMs(everyMinutes: number | null | undefined): number {
  return everyMinutes ? (2 * everyMinutes + 3) * 60_000 : 60 * 60_000;
}
