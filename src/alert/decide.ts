import { EXIT } from '../errors.js';
import type { Health } from '../history/health.js';
import { type AlertEvent, alertEvent } from './event.js';
import type { AlertMemory } from './memory.js';

/** A pause shorter than this is routine (the service's floor is 60 s); a longer one is worth hearing about. */
export const PAUSE_ALERT_MS = 10 * 60_000;

/**
 * `recovered` waits until no poll has failed for this long, and comes no sooner than RECOVERED_AFTER_MS after
 * its `failing`: a service that refuses every other request keeps one `failing` open instead of a pair per poll.
 */
export const WELL_FOR_MS = 30 * 60_000;
export const RECOVERED_AFTER_MS = 60 * 60_000;

/** Whether the agent has posted lately, as its history tells (quiet.ts looks it up). */
export type Posting =
  /** A post within the last 24 h. */
  | { state: 'posting' }
  /** Threads came in the last 24 h, every one skipped, and none posted in that day or since `since`. */
  | { state: 'quiet'; since: string; skipped: number; reasons: ReadonlyArray<{ reason: string; count: number }> }
  /** Too little history to say (less than a day of it), or no thread came. */
  | { state: 'unknown' };

/** What one poll run left behind, as far as alerts care. */
export interface RunFacts {
  now: number;
  agent: string | null;
  configDir: string;
  /** The agent's health with this run in the history (`healthOf`). */
  health: Health;
  /**
   * This run failed on a state problem (no agent registered, a state that cannot be trusted): not in the
   * history (nothing is written into such a dir), and failing at once.
   */
  stateProblem?: { message: string; hint?: string | undefined };
  /** The rate-limit pause stored in the state when the run ended (epoch ms), if any. */
  pausedUntil?: number | undefined;
  posting: Posting;
  /** The command that checks this agent (`agent doctor`, with its config dir when chosen). */
  doctor: string;
}

export interface Decision {
  events: AlertEvent[];
  memory: AlertMemory;
  /** The memory differs from the one given: write it. */
  changed: boolean;
}

/**
 * Which alerts a run calls for, and what to remember: each kind is sent once when its condition begins,
 * never again while it lasts. `failing` lasts until a good poll finds no failed one for WELL_FOR_MS and
 * the `failing` at least RECOVERED_AFTER_MS old: then `recovered`, so a flapping agent costs one pair an
 * hour at most. Pure: the caller reads the facts and writes the memory.
 */
export function decideAlerts(memory: Readonly<AlertMemory>, facts: RunFacts): Decision {
  const next: AlertMemory = { ...memory };
  const events: AlertEvent[] = [];
  const at = new Date(facts.now).toISOString();
  const who = { agent: facts.agent, configDir: facts.configDir };
  const { health, stateProblem } = facts;
  const good = !stateProblem && health.state === 'ok' && health.last.summary.exitCode === EXIT.ok;
  const failed = stateProblem !== undefined || (health.state !== 'unknown' && !good);

  if (stateProblem) {
    if (!next.failing) {
      next.failing = { since: at, sentAt: at };
      const detail = `the last poll could not run: ${stateProblem.message}`;
      events.push(alertEvent({ kind: 'failing', ...who, since: at, detail, hint: stateProblem.hint ?? facts.doctor }));
    }
  } else if (health.state === 'failing') {
    if (!next.failing) {
      next.failing = { since: health.since, sentAt: at };
      const code = health.last.summary.exitCode;
      const detail =
        health.runs > 1
          ? `${health.runs} polls in a row failed, the last with exit ${code}: ${health.reason}`
          : `the last poll failed with exit ${code}: ${health.reason}`;
      events.push(alertEvent({ kind: 'failing', ...who, since: health.since, detail, hint: facts.doctor }));
    }
  }
  if (failed && next.failing && next.failing.sentAt !== at) next.failing = { ...next.failing, lastFailedAt: at };
  else if (good && health.state === 'ok' && next.failing) {
    // An alerts.json from before lastFailedAt was kept: the failing alert is the last failure known.
    const { since, sentAt, lastFailedAt = sentAt } = next.failing;
    if (facts.now - Date.parse(lastFailedAt) >= WELL_FOR_MS && facts.now - Date.parse(sentAt) >= RECOVERED_AFTER_MS) {
      delete next.failing;
      const detail = `no poll has failed since ${lastFailedAt}; the last, at ${health.last.ts}, ended well`;
      events.push(alertEvent({ kind: 'recovered', ...who, since, detail, hint: null }));
    }
  }

  const { pausedUntil } = facts;
  if (pausedUntil !== undefined && pausedUntil - facts.now > PAUSE_ALERT_MS) {
    const until = new Date(pausedUntil).toISOString();
    if (next.paused?.until !== until) {
      next.paused = { until, sentAt: at };
      const minutes = Math.round((pausedUntil - facts.now) / 60_000);
      const detail = `nothing is sent to it until ${until} (${minutes} min)`;
      const hint = 'the polls go on by themselves after it; several agents on one address share its rate limit';
      events.push(alertEvent({ kind: 'paused', ...who, since: at, detail, hint }));
    }
  }

  const { posting } = facts;
  if (posting.state === 'posting') delete next.quiet;
  else if (posting.state === 'quiet' && !next.quiet) {
    next.quiet = { since: posting.since, sentAt: at };
    const top = posting.reasons.map(({ reason, count }) => `${reason} (${count})`).join('; ');
    const detail = `${posting.skipped} new thread(s) in the last 24 h, every one skipped: ${top}`;
    const hint = 'the analyzer skips them all: see agent stats, and the profile (participation) or analyzer';
    events.push(alertEvent({ kind: 'quiet', ...who, since: posting.since, detail, hint }));
  }

  return { events, memory: next, changed: JSON.stringify(next) !== JSON.stringify(memory) };
}
