// The local sandbox of the service: an http.Server over an in-memory store, a feed of threads, a clock
// that locks and scores them, and the controls end-to-end tests use to steer it.
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createSandboxClock, systemClock } from './clock.js';
import type { SandboxSettings } from './context.js';
import { createFeed } from './feed.js';
import { DEFAULT_BODY_LIMIT_BYTES, HttpError, errorReply, sendJson } from './http-io.js';
import { buildThread } from './manual-threads.js';
import { createRateLimiter } from './rate-limit.js';
import { dispatch } from './router.js';
import type { RequestLogEntry } from './router.js';
import { settleThread } from './settle.js';
import { loadStoreFile, saveStoreFile } from './state-file.js';
import { SandboxStore } from './sandbox-store.js';
import type { Interceptor, RunningSandbox, Sandbox, SandboxOptions } from './sandbox-types.js';
import { isLocked, predictionView, threadView } from './views.js';

const warn = (error: unknown) => process.emitWarning(error instanceof Error ? error : String(error));

export function createSandbox(options: SandboxOptions = {}): Sandbox {
  const seed = options.seed ?? 1;
  const statePath = options.statePath;
  const store = (statePath === undefined ? undefined : loadStoreFile(statePath)) ?? new SandboxStore();
  const clock = options.clock ?? createSandboxClock({ speed: options.speed ?? 1 });
  const settings: SandboxSettings = {
    listOrder: options.listOrder ?? 'asc',
    wrap: options.wrap ?? false,
    rateLimit: options.rateLimit ?? 0,
    bodyLimitBytes: options.bodyLimitBytes ?? DEFAULT_BODY_LIMIT_BYTES,
  };
  const onError = options.onError ?? warn;
  const feed = createFeed({ seed, ratePerMinute: options.ratePerMinute ?? 0, store, clock });
  const limiter = createRateLimiter(options.realClock ?? systemClock, () => settings.rateLimit);
  const requests: RequestLogEntry[] = [];
  const requestLogLimit = options.requestLogLimit ?? 10_000;
  const interceptors: Interceptor[] = [];
  let manualCount = 0;

  const save = () => {
    if (statePath !== undefined && !options.readOnly && store.dirty) saveStoreFile(statePath, store);
  };
  const tick = () => {
    feed.catchUp();
    const now = clock.now();
    for (const thread of store.threads()) if (!thread.scored && isLocked(thread, now)) settleThread(store, thread);
    save();
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const entry: RequestLogEntry = { method: req.method ?? '', path: req.url ?? '', headers: { ...req.headers } };
    requests.push(entry);
    if (requests.length > requestLogLimit) requests.splice(0, requests.length - requestLogLimit);
    try {
      for (const fn of [...interceptors]) if (await fn(req, res)) return;
      tick();
      sendJson(res, await dispatch({ store, clock, settings, limiter }, req, entry));
    } catch (error) {
      if (!(error instanceof HttpError)) onError(error);
      if (res.headersSent) res.destroy();
      else if (error instanceof HttpError) sendJson(res, errorReply(error));
      else sendJson(res, { status: 500, body: { error: 'internal', message: 'the sandbox failed; see its stderr' } });
    } finally {
      try {
        save();
      } catch (error) {
        onError(error);
      }
    }
  }

  feed.backfill(options.backlog ?? 0);
  tick();

  return {
    server: createServer((req, res) => void handle(req, res)),
    store,
    clock,
    feed,
    settings,
    requests,
    tick,
    save,
    addThread(input = {}) {
      const thread = buildThread(seed, manualCount++, input, clock.now());
      store.addThread(thread);
      tick();
      return threadView(thread, clock.now());
    },
    lockThread(id) {
      const thread = store.thread(id);
      if (!thread) throw new Error(`no thread ${id}`);
      thread.forcedLock = true;
      store.touch();
      tick();
      return threadView(thread, clock.now());
    },
    comments: () => store.comments().map((c) => ({ ...predictionView(c), honey: c.honey, wax: c.wax })),
    resolvedThreads() {
      const now = clock.now();
      return store
        .threads()
        .filter((thread) => isLocked(thread, now))
        .map((thread) => ({ ...threadView(thread, now), price_on_eval: thread.outcome.priceOnEval }));
    },
    intercept(fn) {
      interceptors.push(fn);
      return () => {
        const index = interceptors.indexOf(fn);
        if (index !== -1) interceptors.splice(index, 1);
      };
    },
  };
}

export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  const sandbox = createSandbox(options);
  const host = options.host ?? '127.0.0.1';
  const { server } = sandbox;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const autoTick = options.autoTick ?? options.clock === undefined;
  const onError = options.onError ?? warn;
  const timer = autoTick
    ? setInterval(() => {
        try {
          sandbox.tick();
        } catch (error) {
          onError(error);
        }
      }, 1000).unref()
    : undefined;
  let closing: Promise<void> | undefined;
  return {
    ...sandbox,
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    // Idempotent: a test may close early and its cleanup close again.
    close: () =>
      (closing ??= new Promise<void>((resolve, reject) => {
        clearInterval(timer);
        try {
          sandbox.save();
        } catch (error) {
          onError(error);
        }
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      })),
  };
}
