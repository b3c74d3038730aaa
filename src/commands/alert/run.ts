import path from 'node:path';
import { alertEvent } from '../../alert/event.js';
import { alertRecord } from '../../alert/record.js';
import { pingHeartbeat, type RouteResult, sendEvent } from '../../alert/routes.js';
import type { Context } from '../../context.js';
import { EXIT, type ExitCode, UsageError } from '../../errors.js';
import { maskStrings } from '../../history/mask.js';
import { recordRun } from '../../history/record-run.js';
import { agentCommand } from '../../output/command-hint.js';
import { stateStore } from '../../session.js';
import { shownUrl } from '../../settings/alert-url.js';
import { readSettings } from '../../settings/settings-file.js';
import type { State } from '../../state/schema.js';

/**
 * `agent alert test`: one `test` event through every route set, as a poll would send it (masked, each route
 * within its limit, side by side), then what each answered. Recorded in the history like any alert, so
 * doctor shows it as the last one sent.
 */
export async function runAlertTest(ctx: Context): Promise<ExitCode> {
  const settings = readSettings(ctx.configDir, ctx);
  const heartbeat = settings['alert.heartbeat'];
  if (!settings['alert.command'] && !settings['alert.webhook'] && !heartbeat) {
    throw new UsageError('no alert route is set: there is nothing to test', {
      hint: `set one first: ${agentCommand(ctx, 'config set alert.webhook https://…')}, or ${agentCommand(ctx, 'config set alert.command "/usr/bin/node /path/to/alert.mjs"')}`,
    });
  }
  const state = readState(ctx);
  if (state) ctx.output.addSecret(state.apiKey);
  const now = ctx.timing.now();
  const event = alertEvent({
    kind: 'test',
    agent: state?.agentName ?? null,
    configDir: path.resolve(ctx.configDir),
    since: new Date(now).toISOString(),
    detail: 'sent by "agent alert test": this route works',
    hint: null,
  });
  const body = JSON.stringify(maskStrings(event, (text) => ctx.output.redact(text)));
  const [routes, ping] = await Promise.all([
    sendEvent(ctx, settings, body, state ? [state.apiKey] : []),
    heartbeat ? pingHeartbeat(ctx, heartbeat) : undefined,
  ]);
  const answers: RouteResult[] = [...routes, ...(ping ? [ping] : [])];
  recordRun(ctx, [alertRecord(ctx.timing.now(), 'test', answers)]);
  const target = (route: RouteResult['route']) =>
    route === 'command'
      ? (settings['alert.command'] ?? '')
      : shownUrl((route === 'webhook' ? settings['alert.webhook'] : heartbeat) ?? '');
  const width = Math.max(...answers.map(({ route }) => route.length));
  ctx.output.result(
    answers.map(
      ({ route, ok, answer }) => `${ok ? 'ok  ' : 'FAIL'}  ${route.padEnd(width)}  ${answer}  (${target(route)})`,
    ),
    { event: event.kind, routes: answers.map((answer) => ({ ...answer, target: target(answer.route) })) },
  );
  return answers.every(({ ok }) => ok) ? EXIT.ok : EXIT.unexpected;
}

function readState(ctx: Context): State | undefined {
  try {
    return stateStore(ctx).read();
  } catch {
    return undefined;
  }
}
