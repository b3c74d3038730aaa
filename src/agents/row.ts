import { AgentError } from '../errors.js';
import { type Health, lateAfterMs, readHealth } from '../history/health.js';
import { describeAgo } from '../domain/duration.js';
import { readHistory } from '../history/log.js';
import type { HistoryEntry } from '../history/entry.js';
import { type AgentPlace, agentCommand, placed } from '../output/command-hint.js';
import { setAsideBy } from '../poll/watch-aside.js';
import { otherWatcher } from '../poll/watch-marker.js';
import { readOutcomes } from '../record/outcomes.js';
import { recordStats } from '../record/record-stats.js';
import type { RunningUser } from '../state/owner.js';
import type { State } from '../state/schema.js';
import { createStateStore } from '../state/state-store.js';
import type { FoundAgent } from './find.js';

/** One agent as `agent list` shows it (docs/cli.md `list`): read from its files alone, nothing sent. */
export interface AgentRow {
  configDir: string;
  /** Its name on the service, from the state; null when not registered (or the state cannot be read). */
  name: string | null;
  registered: boolean;
  schedule: Schedule;
  /** The newest poll the history recorded. */
  lastPoll: null | { at: string; exitCode: number; posted: number; skipped: number; failed: number; error?: string };
  /** Posts (polls' and predicts') in the 24 hours up to now. */
  posts24h: number;
  /** The service's counters at the newest snapshot a poll took (hourly), and when. */
  honey: number | null;
  wax: number | null;
  snapshotAt: string | null;
  /** The record's hit rate over the last 7 days, as `agent stats` computes it (its default period); null without a directional outcome. */
  hitRate: number | null;
  health: { state: Health['state']; since?: string; runs?: number; reason?: string };
  /** A `poll --watch --all` that set it aside after an error no wait fixes, and no longer polls it. */
  setAside: null | { pid: number; since: string; reason: string };
}

/**
 * How it runs. A live watcher comes first: while it polls, cron and timers on the dir stand aside. An
 * overdue one is shown only when nothing else runs the dir. `interval`: minutes (cron, systemd).
 */
export type Schedule =
  | { kind: 'watcher'; interval: null; pid: number; overdue: boolean }
  | { kind: 'cron' | 'systemd'; interval: number | null }
  | { kind: 'none'; interval: null };

/** The span `hitRate` covers: `agent stats`' default, so that the two agree. */
export const RECORD_SPAN_MS = 7 * 86_400_000;
const DAY_MS = 86_400_000;

export interface RowDeps {
  now: number;
  isAlive: (pid: number) => boolean;
  self: number;
  user?: RunningUser;
  /** Something could not be read, but the row still stands (a history that is not a file). */
  warn: (message: string) => void;
}

export function agentRow(agent: FoundAgent, deps: RowDeps): AgentRow {
  return withAside(rowOf(agent, deps), deps);
}

/**
 * Set aside, the agent is polled by nothing but cron (if any) until its files change: failing, whatever
 * else its files say, since the fix may be in and the watcher still not polling it.
 */
function withAside(row: AgentRow, { isAlive }: RowDeps): AgentRow {
  const aside = setAsideBy(row.configDir, { isAlive });
  if (!aside) return row;
  const { pid, since, reason } = aside;
  const said = `poll --watch --all (pid ${pid}) set it aside at ${since} and polls it again once its state.json or config.json changes (or when restarted): ${reason}`;
  return {
    ...row,
    setAside: { pid, since, reason },
    health:
      row.health.state === 'failing'
        ? { ...row.health, reason: `${row.health.reason ?? ''}; ${said}` }
        : { state: 'failing', since, reason: said },
  };
}

function rowOf(agent: FoundAgent, deps: RowDeps): AgentRow {
  const { configDir } = agent;
  const place = { configDir, configDirGiven: true, agentName: agent.agentName };
  let row = emptyRow(configDir, scheduleOf(agent, deps));
  try {
    row = { ...row, ...fromHistory(configDir, deps.now) };
  } catch (error) {
    if (!(error instanceof AgentError)) throw error;
    deps.warn(`agent: ${error.message}`);
  }
  let state: State | undefined;
  try {
    state = createStateStore(configDir, { user: deps.user }).read();
  } catch (error) {
    // A state that cannot be read fails every run (state-intact refuses to start over): failing now.
    if (!(error instanceof AgentError)) throw error;
    return {
      ...row,
      health: {
        state: 'failing',
        reason: error.hint ? `${error.message} (${placed(error.hint, place)})` : error.message,
      },
    };
  }
  if (!state && (row.schedule.kind === 'cron' || row.schedule.kind === 'systemd')) {
    // Each poll its schedule starts ends "not registered" (exit 3), recorded nowhere when the dir is gone.
    return {
      ...row,
      health: {
        state: 'failing',
        reason: `its ${row.schedule.kind === 'cron' ? 'crontab entry' : 'systemd timer'} polls a dir where no agent is registered: each poll exits 3 (register there, or remove it: ${agentCommand(place, 'schedule --remove')})`,
      },
    };
  }
  const named = { ...row, name: state?.agentName ?? null, registered: !!state };
  return state ? withLateness(named, deps.now, place) : named;
}

/**
 * A schedule that has stopped polling (a stopped cron daemon, a disabled timer, a stopped watcher) records
 * nothing at all, so the history alone calls it well: late by doctor's rule (`lateAfterMs`), it fails.
 */
function withLateness(row: AgentRow, now: number, place: AgentPlace): AgentRow {
  if (row.health.state === 'failing' || !row.lastPoll) return row;
  const { schedule } = row;
  const age = now - Date.parse(row.lastPoll.at);
  if (schedule.kind === 'none' || (schedule.kind === 'watcher' && !schedule.overdue)) return row;
  if (age <= lateAfterMs(schedule.interval)) return row;
  const runner =
    schedule.kind === 'watcher'
      ? `its watcher (pid ${schedule.pid}) is overdue`
      : `its ${schedule.kind === 'cron' ? 'crontab entry' : 'systemd timer'} is installed${schedule.interval ? ` for every ${schedule.interval} min` : ''}`;
  return {
    ...row,
    health: {
      state: 'failing',
      since: row.lastPoll.at,
      reason: `the last poll was ${describeAgo(age)}, yet ${runner}: is it running? (${agentCommand(place, 'doctor')})`,
    },
  };
}

function emptyRow(configDir: string, schedule: Schedule): AgentRow {
  return {
    configDir,
    name: null,
    registered: false,
    schedule,
    lastPoll: null,
    posts24h: 0,
    honey: null,
    wax: null,
    snapshotAt: null,
    hitRate: null,
    health: { state: 'unknown' },
    setAside: null,
  };
}

function scheduleOf(agent: FoundAgent, { now, isAlive, self }: RowDeps): Schedule {
  const seen = otherWatcher(agent.configDir, { isAlive, self, now });
  if (seen && !seen.overdue) return { kind: 'watcher', interval: null, pid: seen.watcher.pid, overdue: false };
  if (agent.cron) return { kind: 'cron', interval: agent.cron.every };
  if (agent.systemd) return { kind: 'systemd', interval: agent.systemd.every };
  if (seen) return { kind: 'watcher', interval: null, pid: seen.watcher.pid, overdue: true };
  return { kind: 'none', interval: null };
}

const isPollRun = (record: HistoryEntry) => record.kind === 'run' && record.summary?.command === 'poll';

/** Everything the history and the record say: each read bounded, newest first. */
function fromHistory(configDir: string, now: number): Partial<AgentRow> {
  const health = readHealth(configDir);
  const [last] = readHistory(configDir, { limit: 1, keep: isPollRun }).records;
  const week = readHistory(configDir, { since: now - RECORD_SPAN_MS }).records;
  const posts24h = week.filter((r) => r.kind === 'post' && Date.parse(r.ts) >= now - DAY_MS).length;
  // Hourly while it polls; an agent stopped for a week still has its last one further back.
  const snapshot =
    week.find((r) => r.summary?.counters) ??
    readHistory(configDir, { limit: 1, keep: (r) => !!r.summary?.counters }).records[0];
  let hitRate: number | null = null;
  try {
    const { outcomes } = readOutcomes(configDir, now - RECORD_SPAN_MS);
    hitRate = recordStats(week, outcomes, now - RECORD_SPAN_MS, now).hitRate;
  } catch {
    // No record that can be read: no hit rate, as before the first outcome.
  }
  return {
    lastPoll: last?.summary
      ? {
          at: last.ts,
          exitCode: last.summary.exitCode,
          posted: last.summary.posted,
          skipped: last.summary.skipped,
          failed: last.summary.failed,
          ...(last.summary.error === undefined ? {} : { error: last.summary.error }),
        }
      : null,
    posts24h,
    honey: snapshot?.summary?.counters?.honey ?? null,
    wax: snapshot?.summary?.counters?.wax ?? null,
    snapshotAt: snapshot?.ts ?? null,
    hitRate,
    health:
      health.state === 'failing'
        ? { state: 'failing', since: health.since, runs: health.runs, reason: health.reason }
        : { state: health.state },
  };
}
