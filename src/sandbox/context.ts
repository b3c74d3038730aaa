// What a route handler gets: the parsed request, the caller (on authenticated routes) and the sandbox.
import type { IncomingMessage } from 'node:http';
import type { Clock } from './clock.js';
import type { Caller } from './auth.js';
import { HttpError } from './http-io.js';
import type { SandboxStore } from './sandbox-store.js';

export type ListOrder = 'asc' | 'desc';

/** Knobs a test may turn while the sandbox runs. */
export interface SandboxSettings {
  /** Order of GET /thread: the interface does not say, so clients must cope with both. */
  listOrder: ListOrder;
  /** Serve wrapped bodies ({threads, total}, {thread, comment_count}, {comment}) as some services do. */
  wrap: boolean;
  /** Requests per minute per key; 0 = unlimited. */
  rateLimit: number;
  bodyLimitBytes: number;
}

export interface RouteContext {
  req: IncomingMessage;
  url: URL;
  /** Path parameters, decoded, in pattern order. */
  params: string[];
  caller: Caller | undefined;
  store: SandboxStore;
  clock: Clock;
  settings: SandboxSettings;
  /** The request body as a JSON object (400/413/415 otherwise). */
  body(): Promise<Record<string, unknown>>;
}

export function callerOf(ctx: RouteContext): Caller {
  if (!ctx.caller) throw new HttpError(401, 'unauthorized', 'missing API key: send it in the x-api-key header');
  return ctx.caller;
}

export function paramOf(ctx: RouteContext, index: number): string {
  const value = ctx.params[index];
  if (value === undefined) throw new HttpError(404, 'not_found', 'not found');
  return value;
}

export function isoAt(ms: number): string {
  return new Date(ms).toISOString();
}
