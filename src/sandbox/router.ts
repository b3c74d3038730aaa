// The route table and the path from a parsed request to a reply: match (404/405), authenticate (401),
// rate-limit (429), then the handler.
import type { IncomingMessage } from 'node:http';
import { authenticate } from './auth.js';
import type { Clock } from './clock.js';
import type { RouteContext, SandboxSettings } from './context.js';
import { HttpError, parseJsonObject, readBodyText } from './http-io.js';
import type { Reply } from './http-io.js';
import type { RateLimiter } from './rate-limit.js';
import { getMe, patchMe, register } from './routes-agent.js';
import { postComment } from './routes-comment.js';
import { getThread, listThreads } from './routes-thread.js';
import type { SandboxStore } from './sandbox-store.js';

interface Route {
  method: string;
  pattern: RegExp;
  auth: boolean;
  handle(ctx: RouteContext): Reply | Promise<Reply>;
}

const ROUTES: readonly Route[] = [
  { method: 'POST', pattern: /^\/agent\/register$/, auth: false, handle: register },
  { method: 'GET', pattern: /^\/agent\/me$/, auth: true, handle: getMe },
  { method: 'PATCH', pattern: /^\/agent\/me$/, auth: true, handle: patchMe },
  { method: 'GET', pattern: /^\/thread$/, auth: true, handle: listThreads },
  { method: 'GET', pattern: /^\/thread\/([^/]+)$/, auth: true, handle: getThread },
  { method: 'POST', pattern: /^\/comment\/([^/]+)$/, auth: true, handle: postComment },
];

export interface RequestLogEntry {
  method: string;
  /** As requested, with the query string. */
  path: string;
  headers: IncomingMessage['headers'];
  /** The raw body, once a handler has read it. */
  body?: string;
}

export interface DispatchDeps {
  store: SandboxStore;
  clock: Clock;
  settings: SandboxSettings;
  limiter: RateLimiter;
}

export async function dispatch(deps: DispatchDeps, req: IncomingMessage, entry: RequestLogEntry): Promise<Reply> {
  const url = new URL(req.url ?? '/', 'http://sandbox.invalid');
  const method = req.method ?? 'GET';
  const candidates = ROUTES.filter((route) => route.pattern.test(url.pathname));
  if (candidates.length === 0) throw new HttpError(404, 'not_found', `no route for ${url.pathname}`);
  const route = candidates.find((candidate) => candidate.method === method);
  if (!route) {
    const allow = candidates.map((candidate) => candidate.method).join(', ');
    throw new HttpError(405, 'method_not_allowed', `${method} is not allowed here`, { allow });
  }

  const caller = route.auth ? authenticate(deps.store, req) : undefined;
  if (caller) {
    const retryAfter = deps.limiter.take(caller.keyHash);
    if (retryAfter > 0) {
      throw new HttpError(429, 'rate_limited', `too many requests; retry in ${retryAfter} s`, {
        'retry-after': String(retryAfter),
      });
    }
  }

  const ctx: RouteContext = {
    req,
    url,
    params: decodeParams(route.pattern.exec(url.pathname)?.slice(1) ?? []),
    caller,
    store: deps.store,
    clock: deps.clock,
    settings: deps.settings,
    async body() {
      const text = await readBodyText(req, deps.settings.bodyLimitBytes);
      entry.body = text;
      return parseJsonObject(text);
    },
  };
  return route.handle(ctx);
}

function decodeParams(raw: string[]): string[] {
  try {
    return raw.map((part) => decodeURIComponent(part));
  } catch {
    throw new HttpError(400, 'invalid_path', 'malformed percent-encoding in the path');
  }
}
