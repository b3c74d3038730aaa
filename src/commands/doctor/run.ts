import { lstatSync } from 'node:fs';
import path from 'node:path';
import { checkAsCronRunsIt } from '../../analysis/command/check.js';
import type { Context } from '../../context.js';
import { openSession } from '../../session.js';
import { pausedUntil } from '../../http/pause.js';
import { doctorDeadline, PROBE_TIMEOUT_MS } from '../../domain/budget.js';
import { AgentError, AuthError, EXIT, type ExitCode, RateLimitedError } from '../../errors.js';
import { maskKnownKeys } from '../../history/mask.js';
import { agentCommand, placed } from '../../output/command-hint.js';
import { oneLine } from '../../output/sanitize.js';
import { wrapLine } from '../../output/wrap.js';
import { readKeyFile } from '../../settings/key-file.js';
import { resolveAnalyzerConfig } from '../../settings/resolve.js';
import { readSettings } from '../../settings/settings-file.js';
import type { State } from '../../state/schema.js';
import { stateStore } from '../../session.js';
import { type Check, fail, ok, warn } from './check.js';
import { alertCheck } from './alert-check.js';
import { asideCheck } from './aside-check.js';
import { lockCheck, nodeCheck, pauseCheck, watchCheck } from './local-checks.js';
import { lastPollCheck, scheduleCheck } from './schedule-check.js';

/** The local clock may be this far from the service's before it says so: timestamps compare across them. */
const CLOCK_SKEW_MS = 60_000;
/** The whole check, network included, stays short: it is run by a person waiting for it. */

/**
 * `agent doctor`: one line per thing a user would otherwise debug by hand, each with its fix (docs/cli.md).
 * Sends at most one request to the service (GET /agent/me) and one to a model server; never prints the key.
 */
export async function runDoctor(ctx: Context): Promise<ExitCode> {
  if (!ctx.self || !ctx.runProgram) throw new Error('bug: doctor needs the running program and a runner');
  const now = ctx.timing.now();
  const configDir = path.resolve(ctx.configDir);
  const checks: Check[] = [nodeCheck(ctx.self.version)];
  const state = stateCheck(ctx, checks);
  const paused = state !== undefined && pausedUntil(state, now) !== undefined;
  // The service asked for a pause: even one GET inside it would be impolite (and refused).
  if (state && paused)
    checks.push(warn('service', `not checked: the service asked for a pause until ${state.rateLimitedUntil}`));
  else if (state) await serviceChecks(ctx, state, checks);
  else checks.push(warn('service', 'not checked: there is no usable state to take the address and key from'));
  // A 429 met just now was stored in the state, as by any command: the pause shown is the one on disk.
  checks.push(pauseCheck(state ? storedPause(ctx) : undefined, ctx.timing.now()));
  checks.push(lockCheck(configDir, ctx.self.isAlive));
  const watcher = watchCheck(configDir, { isAlive: ctx.self.isAlive, self: ctx.pid, now });
  const schedule = await scheduleCheck(configDir, ctx.runProgram, {
    configHome: ctx.env.XDG_CONFIG_HOME || (ctx.env.HOME ? path.join(ctx.env.HOME, '.config') : undefined),
    watching: watcher?.status === 'ok',
    proc: ctx.proc ?? '/proc',
    place: ctx,
  });
  checks.push(schedule.check);
  if (watcher) checks.push(watcher);
  const aside = asideCheck(configDir, ctx.self.isAlive);
  if (aside) checks.push(aside);
  checks.push(lastPollCheck(configDir, now, schedule.every, ctx, { registered: holdsState(configDir) }));
  checks.push(await analyzerCheck(ctx));
  const settings = settingsOrNone(ctx);
  if (settings) checks.push(alertCheck(settings, configDir, ctx.env.HOME ?? '/', ctx));

  // A fix quoting a command from an error (a 401, a corrupt state) acts on this agent, as typed.
  for (const check of checks) if (check.fix) check.fix = placed(check.fix, ctx);
  const width = Math.max(...checks.map((c) => c.name.length));
  const label = { ok: 'ok  ', warn: 'warn', fail: 'FAIL' } as const;
  const lines = checks.map(
    (c) =>
      // Masked before the cut: a key cut in half would no longer be recognised (key-never-shown).
      `${label[c.status]}  ${c.name.padEnd(width)}  ${oneLine(ctx.output.redact(c.detail), 200)}${c.fix ? ` (fix: ${oneLine(ctx.output.redact(c.fix), 160)})` : ''}`,
  );
  // At a terminal, broken at spaces under the detail column rather than cut by its edge mid-word.
  const columns = ctx.output.columns;
  ctx.output.result(
    columns === undefined ? lines : lines.flatMap((line) => wrapLine(line, columns, 4 + 2 + width + 2)),
    { checks },
  );
  return checks.some((c) => c.status === 'fail') ? EXIT.unexpected : EXIT.ok;
}

/** The config dir and its state: present, private, owned by whoever runs this, and readable. */
function stateCheck(ctx: Context, checks: Check[]): State | undefined {
  try {
    const state = stateStore(ctx).read();
    if (!state) {
      checks.push(
        fail(
          'state',
          `no agent is registered in ${ctx.configDir}`,
          `${agentCommand(ctx, 'register')} (or --agent or --config-dir naming the dir you registered in)`,
        ),
      );
      return undefined;
    }
    // The last poll's error comes from the history, which an older version may have written the key into.
    maskKnownKeys(ctx);
    checks.push(
      ok(
        'state',
        `agent ${state.agentName} in ${stateStore(ctx).file} (mode 600), cursor ${state.cursor ? state.cursor.timestamp : 'not set yet'}`,
      ),
    );
    return state;
  } catch (error) {
    const known = error instanceof AgentError;
    checks.push(fail('state', known ? error.message : String(error), known ? error.hint : undefined));
    return undefined;
  }
}

/** The settings, or none when they cannot be read (the analyzer check says why). */
function settingsOrNone(ctx: Context): ReturnType<typeof readSettings> | undefined {
  try {
    return readSettings(ctx.configDir);
  } catch {
    return undefined;
  }
}

function storedPause(ctx: Context): string | undefined {
  try {
    return stateStore(ctx).read()?.rateLimitedUntil;
  } catch {
    return undefined; // the state check has said what is wrong with it
  }
}

/** GET /agent/me: the address answers, the key is accepted; its Date header tells this machine's clock. */
async function serviceChecks(ctx: Context, state: State, checks: Check[]): Promise<void> {
  let session: ReturnType<typeof openSession>;
  try {
    // Not a dry run: a 429 on this request is stored like any other (polite), so the next cron poll waits.
    session = openSession(ctx, { deadline: doctorDeadline(ctx.timing.now()) });
    const me = await session.api.me();
    checks.push(
      ok(
        'service',
        `${state.baseUrl} answers and accepts the key (agent ${me.name}, ${me.total_comments ?? 0} predictions)`,
      ),
    );
  } catch (error) {
    if (error instanceof AuthError) {
      checks.push(
        fail(
          'service',
          `${state.baseUrl} rejected the key (401)`,
          `${agentCommand(ctx, 'register --force')} (the old state is kept as a backup)`,
        ),
      );
    } else if (error instanceof RateLimitedError) {
      checks.push(warn('service', `${state.baseUrl} answers, but ${error.message}`));
    } else {
      const known = error instanceof AgentError;
      checks.push(fail('service', known ? error.message : String(error), known ? error.hint : undefined));
    }
    return;
  }
  const date = session.http.lastDate;
  if (!date) return void checks.push(warn('clock', 'the service sent no Date header to compare this clock with'));
  const skew = date.local - date.service;
  const seconds = Math.round(Math.abs(skew) / 1000);
  checks.push(
    Math.abs(skew) <= CLOCK_SKEW_MS
      ? ok('clock', `within ${Math.max(1, seconds)} s of the service's`)
      : warn(
          'clock',
          `this machine's clock is ${seconds} s ${skew > 0 ? 'ahead of' : 'behind'} the service's`,
          'turn on time synchronisation (e.g. timedatectl set-ntp true)',
        ),
  );
}

/** The analyzer cron will use: the configured one resolves, its program is there, its model server answers. */
async function analyzerCheck(ctx: Context): Promise<Check> {
  let config: ReturnType<typeof resolveAnalyzerConfig>;
  try {
    config = resolveAnalyzerConfig(readSettings(ctx.configDir), undefined, { env: ctx.env, readKeyFile });
  } catch (error) {
    const known = error instanceof AgentError;
    return fail('analyzer', known ? error.message : String(error), known ? error.hint : undefined);
  }
  if (config.kind === 'builtin') return ok('analyzer', 'the built-in one');
  if (config.kind === 'command') {
    let doubts: string[];
    try {
      // As cron will run it: from the home directory, not from wherever doctor was started.
      doubts = checkAsCronRunsIt(config.command, ctx.env.HOME ?? '/');
    } catch (error) {
      const known = error instanceof AgentError;
      return fail(
        'analyzer',
        `the command ${oneLine(config.command, 100)}: ${known ? error.message : String(error)}`,
        known ? error.hint : undefined,
      );
    }
    const [doubt] = doubts;
    if (doubt) return warn('analyzer', `the command ${oneLine(config.command, 100)}: ${doubt}`);
    return ok('analyzer', `the command ${oneLine(config.command, 100)}, whose files are there where cron runs it`);
  }
  // Any answer at all, even a 401 or a 404, shows a server there; no key is sent.
  const url = new URL(`${config.llm.baseUrl.href.replace(/\/$/, '')}/models`);
  try {
    const answer = await ctx.transport().send({
      method: 'GET',
      url,
      headers: { accept: 'application/json' },
      timeoutMs: PROBE_TIMEOUT_MS,
      maxBodyBytes: 1024 * 1024,
    });
    return ok(
      'analyzer',
      `the model ${config.llm.model} at ${config.llm.baseUrl.origin}, which answers (${answer.status})`,
    );
  } catch (error) {
    return fail(
      'analyzer',
      `the model server at ${config.llm.baseUrl.origin} does not answer (${error instanceof Error ? oneLine(error.message, 120) : String(error)})`,
      'start it, or agent config set analyzer builtin',
    );
  }
}

/** Something stands where the state belongs (an agent, or a state the state check says is broken). */
function holdsState(configDir: string): boolean {
  try {
    lstatSync(path.join(configDir, 'state.json'));
    return true;
  } catch {
    return false;
  }
}
