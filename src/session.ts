import type { Context } from './context.js';
import { commandDeadline } from './domain/budget.js';
import { NotRegisteredError, UsageError } from './errors.js';
import { createHttpClient } from './http/client.js';
import { baseUrlText, parseBaseUrl } from './http/origin.js';
import { storedPause, storePause } from './http/pause.js';
import { refuseUnverifiedTls } from './http/tls-check.js';
import { agentCommand } from './output/command-hint.js';
import { shownPath } from './output/sanitize.js';
import { createServiceApi, type ServiceApi } from './service/api.js';
import { holdState, type HeldState } from './state/held-state.js';
import { acquireLock, type Lock } from './state/lock.js';
import type { State } from './state/schema.js';
import { createStateStore, type StateStore } from './state/state-store.js';

// Opening a session: the registered agent's state, the lock a command takes, and a client bound to the
// origin its key belongs to. The dependencies themselves are described in context.ts.

export function stateStore(ctx: Context): StateStore {
  return createStateStore(ctx.configDir, { beforeRename: () => ctx.crashPoint?.('before-rename'), user: ctx.user });
}

export interface Session {
  /** The state as read at the start; a run that holds the lock changes it through `held`. */
  state: State;
  store: StateStore;
  /** Present when the command holds the lock (and is not a dry run): all its state changes go here. */
  held: HeldState | undefined;
  api: ServiceApi;
  baseUrl: URL;
  http: ReturnType<typeof createHttpClient>;
}

export interface SessionOptions {
  deadline?: number;
  /** The run lock the command holds: it may change the state (unless a dry run), each write fenced by it. */
  lock?: Lock | undefined;
  /** Changes nothing on disk, a 429's pause included. */
  dryRun?: boolean;
}

/**
 * Loads the registered agent and a client bound to the origin its key belongs to, with the command's
 * time budget and any pause a 429 asked for in an earlier run (polite).
 */
export function openSession(ctx: Context, options: SessionOptions = {}): Session {
  const store = stateStore(ctx);
  const state = store.read();
  if (!state) {
    throw new NotRegisteredError(`no agent is registered in ${shownPath(ctx.configDir)}`, {
      hint: `run "${agentCommand(ctx, 'register')}" first`,
    });
  }
  ctx.output.addSecret(state.apiKey);
  const baseUrl = parseBaseUrl(state.baseUrl);
  // The key belongs to the origin it was issued by (key-origin-only): another address given later never gets it.
  if (ctx.baseUrl !== undefined && baseUrlText(parseBaseUrl(ctx.baseUrl)) !== baseUrlText(baseUrl)) {
    throw new UsageError(
      `the agent in ${shownPath(ctx.configDir)} is registered with ${baseUrlText(baseUrl)}, not ${baseUrlText(parseBaseUrl(ctx.baseUrl))}; its key is never sent elsewhere`,
      { hint: 'drop --base-url/AGENT_BASE_URL, or use another --config-dir and register there' },
    );
  }
  refuseUnverifiedTls(baseUrl, ctx.env, 'the API key');
  const held = options.lock && !options.dryRun ? holdState(store, state, options.lock) : undefined;
  const http = createHttpClient({
    baseUrl,
    apiKey: state.apiKey,
    transport: ctx.transport(),
    timing: ctx.timing,
    timeoutMs: ctx.requestTimeoutMs,
    deadline: options.deadline ?? commandDeadline(ctx.timing.now()),
    pauseEnds: storedPause(state),
    waitOnRateLimit: true,
    signal: ctx.stopSignal,
    // For a person at a terminal (docs/cli.md: under cron, --verbose is one summary line a run).
    onWait: (ms, why) =>
      ctx.output.stderrIsTTY &&
      ctx.output.progress(`${why}: waiting ${Math.ceil(ms / 1000)} s before the next request…`),
    onRateLimited: options.dryRun
      ? undefined
      : (until) => storePause(until, { store, held, takeLock: () => takeLock(ctx) }),
  });
  return { state, store, held, api: createServiceApi(http), baseUrl, http };
}

/** The run lock on the config dir (one-writer), renewed by the run's own clock. */
export function takeLock(ctx: Context): Lock {
  const clock = () => ctx.timing.now();
  try {
    return acquireLock({ dir: ctx.configDir, pid: ctx.pid, now: clock(), user: ctx.user, clock });
  } catch (error) {
    // No config dir at all: the register to run is this agent's, not the default one's.
    if (!(error instanceof NotRegisteredError)) throw error;
    throw new NotRegisteredError(error.message, { hint: `run "${agentCommand(ctx, 'register')}" first` });
  }
}
