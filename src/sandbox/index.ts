// What the `agent sandbox` command and the end-to-end tests use.
export { startSandbox, createSandbox } from './server.js';
export type {
  Interceptor,
  ResolvedThread,
  RunningSandbox,
  Sandbox,
  SandboxComment,
  SandboxOptions,
} from './sandbox-types.js';
export type { ThreadInput } from './manual-threads.js';
export type { ListOrder, SandboxSettings } from './context.js';
export type { RequestLogEntry } from './router.js';
export type { ThreadView, AgentView, PredictionView } from './views.js';
export { createFakeClock, createSandboxClock, systemClock, HOUR_MS, MINUTE_MS } from './clock.js';
export type { Clock, FakeClock } from './clock.js';
export { API_KEY_PREFIX } from './auth.js';
export { MAX_THREAD_LIMIT } from './routes-thread.js';
export { DEFAULT_BODY_LIMIT_BYTES } from './http-io.js';
export { LOCK_AFTER_MS } from './outcome.js';

export { SANDBOX_CLI_DEFAULTS } from './defaults.js';

/** The first line `agent sandbox` prints on stdout (docs/cli.md). */
export function formatListeningLine(url: string): string {
  return `Sandbox listening on ${url}`;
}
