// The shapes of the sandbox's API for tests and the `agent sandbox` command: its options, the object
// createSandbox returns, and what startSandbox adds once it listens.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Clock } from './clock.js';
import type { ListOrder, SandboxSettings } from './context.js';
import type { Feed } from './feed.js';
import type { ThreadInput } from './manual-threads.js';
import type { RequestLogEntry } from './router.js';
import type { SandboxStore } from './sandbox-store.js';
import type { PredictionView, ThreadView } from './views.js';

export interface SandboxOptions {
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 0: a free port. */
  port?: number;
  /** Seed of the feed; default 1. */
  seed?: number;
  /** Sandbox time per real time; default 1. Ignored when `clock` is given. */
  speed?: number;
  /** Feed threads per minute of sandbox time; default 0 (no automatic feed). */
  ratePerMinute?: number;
  /** Threads created at start, spread over the past 4 hours (a fresh store only); default 0. */
  backlog?: number;
  /** Requests per minute per key (real time); default 0 = no limit. */
  rateLimit?: number;
  /** Load the store from this file if it exists, save it there after every change. */
  statePath?: string;
  /** Load statePath but never write it (`agent sandbox --export` reads a running sandbox's file). */
  readOnly?: boolean;
  /** Sandbox time (locking, scoring, timestamps); default: a sandbox clock at `speed`. */
  clock?: Clock;
  /** Real time for the rate limit; default the system clock. */
  realClock?: Clock;
  listOrder?: ListOrder;
  wrap?: boolean;
  bodyLimitBytes?: number;
  /** Tick once a second while listening; default: true unless a `clock` is injected. */
  autoTick?: boolean;
  /** The request log keeps the latest this many entries, so a long-running sandbox does not grow; default 10000. */
  requestLogLimit?: number;
  /** Where failures outside any request go (a failed save from the timer); default process.emitWarning. */
  onError?: (error: unknown) => void;
}

/** Intercepts a request before routing; returns true when it has answered it. */
export type Interceptor = (req: IncomingMessage, res: ServerResponse) => boolean | Promise<boolean>;

/** A posted prediction plus what it earned (absent until its thread locks). */
export type SandboxComment = PredictionView & { honey?: number; wax?: number };

/** A locked thread with its outcome revealed: the shape `agent backtest` reads. */
export type ResolvedThread = ThreadView & { price_on_eval: number };

export interface Sandbox {
  server: Server;
  store: SandboxStore;
  clock: Clock;
  feed: Feed;
  /** Live settings: a test may flip listOrder, wrap or rateLimit between requests. */
  settings: SandboxSettings;
  /** Every request received (the latest requestLogLimit), in order, logged before any interceptor or route. */
  requests: RequestLogEntry[];
  /** Creates due feed threads, then locks and scores threads whose time has come. */
  tick(): void;
  addThread(input?: ThreadInput): ThreadView;
  lockThread(id: string): ThreadView;
  comments(): SandboxComment[];
  resolvedThreads(): ResolvedThread[];
  intercept(fn: Interceptor): () => void;
  /** Writes the store to statePath now (a no-op without one, or when readOnly). */
  save(): void;
}

export interface RunningSandbox extends Sandbox {
  url: string;
  close(): Promise<void>;
}
