import { readFileSync } from 'node:fs';
import type { Context } from '../../context.js';
import { parseDuration } from '../../domain/duration.js';
import { userPath } from '../../domain/home-path.js';
import { messageOf, UsageError } from '../../errors.js';
import { isLoopbackHost } from '../../http/origin.js';
import { oneLine, shownPath } from '../../output/sanitize.js';
import { sandboxWithHistory, writeResolvedThreads } from '../../sandbox/export.js';
import { createSandboxClock, formatListeningLine, SANDBOX_CLI_DEFAULTS, startSandbox } from '../../sandbox/index.js';
import { savedClockOf } from '../../sandbox/state-file.js';

export interface SandboxOptions {
  port?: string;
  host?: string;
  seed?: string;
  speed?: string;
  rate?: string;
  rateLimit?: string;
  state?: string;
  /** Where the sandbox clock starts: an ISO 8601 time, or a duration ago (`4h`). */
  start?: string;
  /** Write the resolved threads to this file and exit instead of serving. */
  export?: string;
  /** With --export: hours of sandbox time the feed runs first, so there is history to export. */
  history?: string;
}

/** What --export may generate at most: a backtest file of this many threads stays far under its size cap. */
export const MAX_HISTORY_THREADS = 20_000;
const MAX_HISTORY_HOURS = 24 * 30;

/**
 * Serves the local sandbox of the service until SIGINT or SIGTERM (docs/cli.md `sandbox`); with --export,
 * writes its resolved threads for `agent backtest` instead, and serves nothing.
 */
export async function runSandbox(ctx: Context, given: SandboxOptions): Promise<void> {
  const file = (path: string | undefined) => (path === undefined ? undefined : userPath(path, ctx.env.HOME));
  const flags = { ...given, state: file(given.state), export: file(given.export) };
  const options = {
    host: flags.host ?? SANDBOX_CLI_DEFAULTS.host,
    port: number('--port', flags.port, SANDBOX_CLI_DEFAULTS.port, { min: 0, max: 65535, integer: true }),
    seed: number('--seed', flags.seed, SANDBOX_CLI_DEFAULTS.seed, { min: 0, max: 2 ** 32 - 1, integer: true }),
    speed: number('--speed', flags.speed, SANDBOX_CLI_DEFAULTS.speed, { min: 0.001, max: 100_000 }),
    ratePerMinute: number('--rate', flags.rate, SANDBOX_CLI_DEFAULTS.ratePerMinute, { min: 0, max: 10_000 }),
    rateLimit: number('--rate-limit', flags.rateLimit, SANDBOX_CLI_DEFAULTS.rateLimit, {
      min: 0,
      max: 1_000_000,
      integer: true,
    }),
    backlog: SANDBOX_CLI_DEFAULTS.backlog,
    statePath: flags.state,
    onError: (error: unknown) => ctx.output.warn(`sandbox: ${messageOf(error)}`),
  };
  if (flags.start !== undefined && flags.export !== undefined)
    throw new UsageError('--start does not apply with --export (its clock ends at the present)');
  if (flags.export !== undefined) return exportSandbox(flags.export, flags.history, options, ctx);
  if (flags.history !== undefined) throw new UsageError('--history only applies with --export');
  // A clock started in the past and run fast reaches the present later: until then, its threads are never
  // dated ahead of a client's clock (which a client rightly distrusts).
  const start = clockStart(flags.start, options.statePath, ctx);
  const clock = createSandboxClock({ start, speed: options.speed });
  if (!isLoopbackHost(options.host)) {
    ctx.output.warn(`sandbox: listening on ${options.host}: anyone who can reach it can use this sandbox`);
  }
  const sandbox = await startSandbox({ ...options, clock, autoTick: true }).catch((error: unknown) => {
    throw listenError(error, options.host, options.port);
  });
  // The first line on stdout, always: scripts read the address from it (docs/cli.md).
  ctx.output.result(formatListeningLine(sandbox.url), { url: sandbox.url });
  ctx.output.progress(
    options.statePath === undefined
      ? 'sandbox: its state lives in memory and is gone when it stops (--state <file> keeps it)'
      : `sandbox: its state is kept in ${shownPath(options.statePath)}`,
  );
  const pace = options.speed === 1 ? 'real time' : `${options.speed}\u00d7 real time`;
  ctx.output.progress(`sandbox: its clock reads ${minute(clock.now())} UTC, running at ${pace}`);
  ctx.output.progress(`Try: agent register --base-url ${sandbox.url} --name my-agent … (Ctrl-C stops the sandbox)`);
  const signal = await (ctx.untilSignal ?? neverEnds)();
  await sandbox.close();
  ctx.output.progress(`Sandbox stopped (${signal}).`);
}

function exportSandbox(
  file: string,
  rawHistory: string | undefined,
  options: { seed: number; ratePerMinute: number; backlog: number; statePath: string | undefined },
  ctx: Context,
): void {
  const historyHours = number('--history', rawHistory, 0, { min: 0, max: MAX_HISTORY_HOURS });
  const planned = Math.ceil(options.ratePerMinute * 60 * historyHours);
  if (planned > MAX_HISTORY_THREADS) {
    throw new UsageError(
      `--history ${historyHours} at --rate ${options.ratePerMinute} would create ${planned} threads; at most ${MAX_HISTORY_THREADS}`,
      {
        hint: 'lower --history or --rate',
      },
    );
  }
  const sandbox = sandboxWithHistory({ ...options, historyHours, now: ctx.timing.now() });
  const threads = sandbox.resolvedThreads();
  try {
    writeResolvedThreads(file, threads);
  } catch (error) {
    throw new UsageError(
      `cannot write ${JSON.stringify(oneLine(file, 200))}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
  const few =
    historyHours === 0 && threads.length < 50
      ? ` (a fresh sandbox has only its ${options.backlog}-thread backlog; --history 24 runs the feed for 24 hours first)`
      : '';
  ctx.output.result(
    `Wrote ${threads.length} resolved thread${threads.length === 1 ? '' : 's'} to ${oneLine(file, 200)}${few}.`,
    { file, threads: threads.length },
  );
}

/**
 * Where the clock starts: at `--start`, else now; never before the clock a state file saved, since the
 * agents that read it keep cursors up to there and would see "Nothing new." until it came back. Restarted
 * with the same `--start`, a sandbox goes on from where it stopped, and says so.
 */
function clockStart(raw: string | undefined, statePath: string | undefined, ctx: Context): number {
  const now = ctx.timing.now();
  const asked = raw === undefined ? now : startOf(raw, now);
  const saved = statePath === undefined ? undefined : savedClockOf(statePath);
  if (saved === undefined || asked >= saved) return asked;
  const back = (saved - asked) / 3_600_000;
  const hours = `${back < 10 ? back.toFixed(1) : Math.round(back)} hour${back === 1 ? '' : 's'}`;
  ctx.output.warn(
    `sandbox: ${raw === undefined ? "starting at this machine's time" : `--start ${raw}`} would move the clock saved in ${shownPath(statePath as string)} back ${hours}; it goes on from ${minute(saved)} UTC instead`,
  );
  return saved;
}

function minute(ms: number): string {
  return new Date(ms).toISOString().slice(0, 16).replace('T', ' ');
}

/** `--start`: an ISO 8601 date-time, or a duration before now (`30m`, `4h`, `2d`). */
function startOf(raw: string, now: number): number {
  if (/^\s*\d+[mhd]\s*$/.test(raw)) return now - parseDuration(raw, '--start');
  const ms = Date.parse(raw);
  if (!/^\d{4}-\d\d-\d\dT/.test(raw.trim()) || !Number.isFinite(ms))
    throw new UsageError(
      `--start must be an ISO 8601 time or a duration ago such as 4h (got ${JSON.stringify(oneLine(raw, 40))})`,
    );
  return ms;
}

function number(
  flag: string,
  raw: string | undefined,
  fallback: number,
  range: { min: number; max: number; integer?: boolean },
): number {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (
    raw.trim() === '' ||
    !Number.isFinite(value) ||
    value < range.min ||
    value > range.max ||
    (range.integer && !Number.isInteger(value))
  ) {
    throw new UsageError(
      `${flag} must be ${range.integer ? 'a whole number' : 'a number'} from ${range.min} to ${range.max} (got ${JSON.stringify(raw)})`,
    );
  }
  return value;
}

// Node's listen errors name a system call and a code; what the user needs is which flag to change.
function listenError(error: unknown, host: string, port: number): unknown {
  switch ((error as NodeJS.ErrnoException).code) {
    case 'EADDRINUSE':
      return new UsageError(`port ${port} is already in use on ${host}`, {
        hint: 'choose another --port, or --port 0 to pick a free one',
      });
    case 'EACCES': {
      const from = unprivilegedFrom();
      const why = port < from ? `: ports below ${from} are for root` : '';
      return new UsageError(`not allowed to listen on port ${port} of ${host} (EACCES)${why}`, {
        hint: `choose a --port from ${from} up, or --port 0 to pick a free one`,
      });
    }
    case 'EADDRNOTAVAIL':
      return new UsageError(`cannot listen on ${host}: it is not an address of this machine`, { hint: 'check --host' });
    default:
      return error;
  }
}

// Linux's first port an ordinary user may listen on (1024 unless the system says otherwise).
function unprivilegedFrom(): number {
  try {
    const value = Number(readFileSync('/proc/sys/net/ipv4/ip_unprivileged_port_start', 'utf8'));
    return Number.isInteger(value) ? value : 1024;
  } catch {
    return 1024;
  }
}

function neverEnds(): Promise<string> {
  return new Promise(() => {});
}
