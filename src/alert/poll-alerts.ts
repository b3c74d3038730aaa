import path from 'node:path';
import type { Context } from '../context.js';
import { EXIT } from '../errors.js';
import { readHealth } from '../history/health.js';
import { maskStrings } from '../history/mask.js';
import { isStateProblem, recordedMessage, recordRun } from '../history/record-run.js';
import { storedPause } from '../http/pause.js';
import { type AgentPlace, agentCommand, placed } from '../output/command-hint.js';
import { stateStore } from '../session.js';
import { ALERT_SETTINGS, type Settings } from '../settings/table.js';
import { readSettingsForEdit } from '../settings/settings-file.js';
import type { Lock } from '../state/lock.js';
import type { State } from '../state/schema.js';
import { decideAlerts } from './decide.js';
import type { AlertEvent } from './event.js';
import { readMemory, writeMemory } from './memory.js';
import { postingOf } from './quiet.js';
import { alertRecord } from './record.js';
import { eventRoutes, pingHeartbeat, type RouteResult, sendEvent } from './routes.js';

/** How a poll run ended, for the alerts it may call for. */
export interface PollEnd {
  /** The run lock: the alert memory is written under it. */
  lock: Lock | undefined;
  exitCode: number;
  /** What ended the run, when it failed. */
  error?: unknown;
}

/**
 * After a poll run is recorded (an alert key is set): decides which alerts its end calls for,
 * remembers them, sends them, pings the heartbeat after a good run, and records what each route answered.
 * A run that sends nothing writes nothing and sends nothing.
 */
export async function sendPollAlerts(ctx: Context, end: PollEnd): Promise<void> {
  // Stopped by a signal: a person (or systemd) is waiting for the process to end.
  if (end.exitCode === EXIT.interrupted) return;
  const settings = alertSettings(readSettingsForEdit(ctx.configDir));
  const now = ctx.timing.now();
  const configDir = path.resolve(ctx.configDir);
  const state = readState(ctx);
  if (state) ctx.output.addSecret(state.apiKey);
  const secrets = state ? [state.apiKey] : [];

  const events: AlertEvent[] = [];
  if (eventRoutes(settings).length) {
    const memory = readMemory(configDir);
    const decision = decideAlerts(memory, {
      now,
      agent: state?.agentName ?? null,
      configDir,
      health: readHealth(configDir),
      ...(isStateProblem(end.error) ? { stateProblem: problemOf(end.error, ctx) } : {}),
      pausedUntil: state ? storedPause(state) : undefined,
      posting: postingOf(configDir, now),
      doctor: `run ${agentCommand(ctx, 'doctor')}`,
    });
    if (decision.changed) writeMemory(configDir, decision.memory, end.lock?.confirm);
    events.push(...decision.events);
  }
  const heartbeat = settings['alert.heartbeat'];
  const good = end.exitCode === EXIT.ok && end.error === undefined;
  if (!events.length && !(heartbeat && good)) return;

  const redact = (text: string) => ctx.output.redact(text);
  const sent = events.map(async (event) => {
    const routes = await sendEvent(ctx, settings, JSON.stringify(maskStrings(event, redact)), secrets);
    return { event: event.kind, routes };
  });
  const pinged = heartbeat && good ? pingHeartbeat(ctx, heartbeat) : undefined;
  const answers = await Promise.all(sent);
  const ping = await pinged;
  const records = answers.map(({ event, routes }) => alertRecord(ctx.timing.now(), event, routes));
  if (ping && !ping.ok) records.push(alertRecord(ctx.timing.now(), 'heartbeat', [ping]));
  recordRun(ctx, records);
  for (const { event, routes } of answers) warnFailed(ctx, event, routes);
  if (ping) warnFailed(ctx, 'heartbeat', [ping]);
}

/** Said where the run's output goes (under cron: its log): the poll's own exit code is not touched. */
function warnFailed(ctx: Context, what: string, routes: readonly RouteResult[]): void {
  for (const { route, ok, answer } of routes)
    if (!ok)
      ctx.output.warn(
        `agent: the ${what === 'heartbeat' ? 'heartbeat' : `${what} alert by ${route}`} failed: ${answer}`,
      );
}

function problemOf(error: unknown, place: AgentPlace): { message: string; hint?: string | undefined } {
  const hint = (error as { hint?: unknown }).hint;
  // Pasted from the alert, its command acts on this agent (the crontab line named its dir).
  return { message: recordedMessage(error), hint: typeof hint === 'string' ? placed(hint, place) : undefined };
}

/**
 * The alert keys as stored, without the schema of the whole file: another key that is not valid is a
 * broken config, which fails every poll and must be told, not silence the alerts. Each route checks its
 * own value before it is used (parseAlertUrl, parseCommandLine).
 */
function alertSettings(stored: Record<string, unknown>): Settings {
  return Object.fromEntries(
    ALERT_SETTINGS.flatMap((key) => (typeof stored[key] === 'string' ? [[key, stored[key]]] : [])),
  );
}

/** The state for the agent's name, its key (to mask) and its pause; none when it cannot be read. */
function readState(ctx: Context): State | undefined {
  try {
    return stateStore(ctx).read();
  } catch {
    return undefined;
  }
}
