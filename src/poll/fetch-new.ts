import type { Thread } from '../domain/thread.js';
import type { Cursor, MalformedThread, ServiceApi } from '../service/api.js';
import { compareKey, isAfter, maxKey } from './cursor.js';

/** A run never pages further than this: more is left for the next run, a few minutes later. */
export const MAX_PAGES = 20;

export interface NewThreads {
  threads: Thread[];
  malformed: MalformedThread[];
  unidentifiable: number;
  pages: number;
}

/**
 * Everything new since the cursor; `onNews` runs once if the first page has some. A full page means there
 * may be more, so the next page is asked for from the newest thread seen: the service does not promise an
 * order, so "the last element" means nothing.
 */
export async function fetchNewThreads(api: ServiceApi, cursor: Cursor | null, limit: number, onNews?: () => Promise<void>): Promise<NewThreads> {
  const threads = new Map<string, Thread>();
  const malformed = new Map<string, MalformedThread>();
  let unidentifiable = 0;
  let from = cursor;
  let pages = 0;
  while (pages < MAX_PAGES) {
    const page = await api.threads(limit, from);
    pages += 1;
    unidentifiable += page.unidentifiable;
    // A service that ignored the cursor would send old threads again: only those after it count.
    for (const thread of page.threads) if (isAfter(thread, cursor)) threads.set(thread.id, thread);
    if (pages === 1 && threads.size > 0) await onNews?.();
    for (const bad of page.malformed) if (isAfter(bad, cursor) && !threads.has(bad.id)) malformed.set(bad.id, bad);
    if (page.size < limit) break;
    const newest = maxKey([...page.threads, ...page.malformed]);
    // No progress means the service ignores the cursor: asking again would loop.
    if (!newest || (from && compareKey(newest, from) <= 0)) break;
    from = { timestamp: newest.timestamp, id: newest.id };
  }
  for (const id of threads.keys()) malformed.delete(id);
  return { threads: [...threads.values()], malformed: [...malformed.values()], unidentifiable, pages };
}
