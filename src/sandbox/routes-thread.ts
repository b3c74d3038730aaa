// GET /thread (cursor pagination) and GET /thread/:id (docs/service.md#thread-list).
//
// Pagination, as the sandbox defines what the interface leaves open:
// - threads are ordered by (timestamp, id); ids compare as plain strings, so equal timestamps are fine;
// - without a cursor: the latest `limit` threads; with `timestamp` + `id`: the first `limit` threads
//   strictly after that pair, so a client that saves the greatest (timestamp, id) it saw misses nothing;
// - either way the page is served oldest-first, or newest-first when settings.listOrder is 'desc'.
import { LIMITS } from '../domain/profile.js';
import type { RouteContext } from './context.js';
import { paramOf } from './context.js';
import { HttpError } from './http-io.js';
import type { Reply } from './http-io.js';
import type { ThreadRecord } from './records.js';
import { compareThreads } from './sandbox-store.js';
import { threadView } from './views.js';

/** The largest `limit` accepted; the interface does not say, so the sandbox documents its own. */
export const MAX_THREAD_LIMIT = LIMITS.maxThreadLimit;
const ISO_8601 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/;

const badQuery = (message: string) => new HttpError(400, 'invalid_query', message);

function single(params: URLSearchParams, name: string): string | undefined {
  const values = params.getAll(name);
  if (values.length > 1) throw badQuery(`${name} given more than once`);
  return values[0];
}

export function parseLimit(params: URLSearchParams): number {
  const raw = single(params, 'limit');
  if (raw === undefined) return LIMITS.defaultThreadLimit;
  const limit = /^\d{1,6}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(limit >= 1 && limit <= MAX_THREAD_LIMIT)) {
    throw badQuery(`limit must be an integer from 1 to ${MAX_THREAD_LIMIT}`);
  }
  return limit;
}

export function parseCursor(params: URLSearchParams): { timestampMs: number; id: string } | undefined {
  const timestamp = single(params, 'timestamp');
  const id = single(params, 'id');
  if (timestamp === undefined && id === undefined) return undefined;
  if (timestamp === undefined || id === undefined) {
    throw badQuery('the cursor needs both timestamp and id');
  }
  const timestampMs = ISO_8601.test(timestamp) ? Date.parse(timestamp) : Number.NaN;
  if (!Number.isFinite(timestampMs)) throw badQuery('timestamp must be an ISO 8601 date-time');
  if (id === '') throw badQuery('id must not be empty');
  return { timestampMs, id };
}

export function pageOf(
  threads: readonly ThreadRecord[],
  limit: number,
  cursor: { timestampMs: number; id: string } | undefined,
): ThreadRecord[] {
  if (!cursor) return threads.slice(Math.max(0, threads.length - limit));
  const start = threads.findIndex((thread) => compareThreads(thread, cursor) > 0);
  return start === -1 ? [] : threads.slice(start, start + limit);
}

export function listThreads(ctx: RouteContext): Reply {
  const limit = parseLimit(ctx.url.searchParams);
  const cursor = parseCursor(ctx.url.searchParams);
  const all = ctx.store.threads();
  const now = ctx.clock.now();
  const views = pageOf(all, limit, cursor).map((thread) => threadView(thread, now));
  if (ctx.settings.listOrder === 'desc') views.reverse();
  return { status: 200, body: ctx.settings.wrap ? { threads: views, total: all.length } : views };
}

export function getThread(ctx: RouteContext): Reply {
  const thread = ctx.store.thread(paramOf(ctx, 0));
  if (!thread) throw new HttpError(404, 'not_found', 'no thread with that id');
  const view = threadView(thread, ctx.clock.now());
  const body = ctx.settings.wrap ? { thread: view, comment_count: ctx.store.commentsOn(thread.id).length } : view;
  return { status: 200, body };
}
