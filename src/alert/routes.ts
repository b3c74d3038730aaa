import { childEnvironment } from '../analysis/command/child-env.js';
import { parseCommandLine } from '../analysis/command/command-line.js';
import { refuseWritableFiles } from '../analysis/command/check.js';
import { startProcess } from '../analysis/command/start-process.js';
import type { Context } from '../context.js';
import { ALERT_LIMIT_MS, ALERT_TERM_GRACE_MS } from '../domain/budget.js';
import { holdsKey } from '../domain/probe.js';
import { messageOf } from '../errors.js';
import { oneLine } from '../output/sanitize.js';
import { parseAlertUrl } from '../settings/alert-url.js';
import type { Settings } from '../settings/table.js';

// Where alerts go (docs/alerts.md): a command of the user's, a webhook, and the heartbeat's ping. Each is
// given ALERT_LIMIT_MS in all and runs beside the others, so a poll pays at most that once; none carries
// the service key (the command's environment is cleared of it, the webhook gets no x-api-key and a body
// masked like all output); a failure is an answer to record, never an error for the poll.

export type RouteName = 'command' | 'webhook' | 'heartbeat';

/** What one route answered: `answer` is one line for the history and for `alert test`. */
export interface RouteResult {
  route: RouteName;
  ok: boolean;
  answer: string;
}

/** An answer body is not read beyond this: only its status matters. */
const MAX_ANSWER_BYTES = 64 * 1024;
const SECONDS = ALERT_LIMIT_MS / 1000;

/** The routes set in config.json that carry events (the heartbeat carries none). */
export function eventRoutes(settings: Settings): RouteName[] {
  return [
    ...(settings['alert.command'] ? (['command'] as const) : []),
    ...(settings['alert.webhook'] ? (['webhook'] as const) : []),
  ];
}

/**
 * Sends one event's JSON (already masked) through each route given, all at once; `secrets` are the keys
 * that must not leave (the body is refused if it still holds one).
 */
export async function sendEvent(
  ctx: Context,
  settings: Settings,
  body: string,
  secrets: readonly string[],
): Promise<RouteResult[]> {
  const sends: Array<Promise<RouteResult>> = [];
  const command = settings['alert.command'];
  const webhook = settings['alert.webhook'];
  if (command) sends.push(guarded('command', () => runCommand(ctx, command, body, secrets)));
  if (webhook) sends.push(guarded('webhook', () => postWebhook(ctx, webhook, body, secrets)));
  return Promise.all(sends);
}

/** One GET to the heartbeat URL: the dead-man's switch hears that a poll went well. */
export function pingHeartbeat(ctx: Context, url: string): Promise<RouteResult> {
  return guarded('heartbeat', async () => {
    const answer = await ctx.transport().send({
      method: 'GET',
      url: parseAlertUrl(url, 'alert.heartbeat'),
      headers: { 'user-agent': 'prediction-agent' },
      timeoutMs: ALERT_LIMIT_MS,
      maxBodyBytes: MAX_ANSWER_BYTES,
    });
    return statusResult('heartbeat', answer.status);
  });
}

async function runCommand(ctx: Context, line: string, body: string, secrets: readonly string[]): Promise<RouteResult> {
  const argv = parseCommandLine(line, 'alert.command');
  // Checked again before each run, as for an analyzer: every cron run executes it.
  refuseWritableFiles(argv);
  if (secrets.some((key) => holdsKey(body, key))) return refused('command');
  const run = startProcess({
    argv,
    input: `${body}\n`,
    env: childEnvironment(ctx.env, secrets),
    // SIGTERM, then SIGKILL to its whole process group, both within the limit.
    timeoutMs: ALERT_LIMIT_MS - 2 * ALERT_TERM_GRACE_MS,
    killGraceMs: ALERT_TERM_GRACE_MS,
    maxOutputBytes: MAX_ANSWER_BYTES,
    onStderrLine: () => undefined,
  });
  const result = await run.result;
  switch (result.kind) {
    case 'not-started':
      return { route: 'command', ok: false, answer: `could not start ${oneLine(argv[0], 120)} (${result.code})` };
    case 'stopped':
      return {
        route: 'command',
        ok: false,
        answer:
          result.why === 'output-cap'
            ? 'stopped: it wrote more than 64 KiB'
            : `no exit within ${SECONDS} s: stopped with its process group`,
      };
    case 'exited':
      if (result.code === 0) return { route: 'command', ok: true, answer: 'exit 0' };
      return {
        route: 'command',
        ok: false,
        answer: result.signal ? `ended by ${result.signal}` : `exit ${result.code}`,
      };
  }
}

async function postWebhook(ctx: Context, raw: string, body: string, secrets: readonly string[]): Promise<RouteResult> {
  const url = parseAlertUrl(raw, 'alert.webhook');
  if (secrets.some((key) => holdsKey(body, key))) return refused('webhook');
  const answer = await ctx.transport().send({
    method: 'POST',
    url,
    // Only these: never x-api-key, whatever the URL.
    headers: { 'content-type': 'application/json', 'user-agent': 'prediction-agent' },
    body,
    timeoutMs: ALERT_LIMIT_MS,
    maxBodyBytes: MAX_ANSWER_BYTES,
  });
  return statusResult('webhook', answer.status);
}

function statusResult(route: RouteName, status: number): RouteResult {
  if (status >= 200 && status < 300) return { route, ok: true, answer: `HTTP ${status}` };
  if (status >= 300 && status < 400)
    return { route, ok: false, answer: `HTTP ${status}: a redirect, which is never followed; give the final URL` };
  return { route, ok: false, answer: `HTTP ${status}` };
}

function refused(route: RouteName): RouteResult {
  return { route, ok: false, answer: 'not sent: the event held the service key' };
}

/** A route that throws (a bad URL, a network error, a timeout) answers with the error's one line. */
async function guarded(route: RouteName, send: () => Promise<RouteResult>): Promise<RouteResult> {
  try {
    return await send();
  } catch (error) {
    return { route, ok: false, answer: oneLine(messageOf(error), 200) };
  }
}
