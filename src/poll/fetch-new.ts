import type { Thread } from '../domain/thread.js';
import type { Cursor, MalformedThread, ServiceApi, UndatedThread } from '../service/api.js';
import { compareKey, isFuture, maxKey, mayBeNew } from './cursor.js';

export interface NewThreads {
  threads: Thread[];
  malformed: MalformedThread[];
  undated: UndatedThread[];
  unidentifiable: number;
  /**
   * Every thread up to this key has been seen by the walk (a full page says nothing of what follows it);
   * undefined once a page came back short: the walk has seen everything there is.
   */
  seenUpTo: Cursor | undefined;
}

/**
 * The threads after the cursor, a page at a time, oldest first, so that a run can handle and save each page
 * before it asks for the next: a slow service or a long backlog then still makes progress run after run.
 * A full page means there may be more, so the next page is asked for from the newest thread seen: the
 * service does not promise an order, so "the last element" means nothing. A thread dated in the future
 * never sets where the next page starts, or one wrong date would step over every thread before it.
 */
export async function* walkNewThreads(api: ServiceApi, cursor: Cursor | null, limit: number, now: () => number): AsyncGenerator<NewThreads> {
  let from = cursor;
  for (;;) {
    const page = await api.threads(limit, from);
    const full = page.size >= limit;
    const newest = maxKey([...page.threads, ...page.malformed].filter((key) => !isFuture(key, now())));
    // No progress means the service ignores the cursor: asking again would loop.
    const next = full && newest && (!from || compareKey(newest, from) > 0) ? { timestamp: newest.timestamp, id: newest.id } : undefined;
    yield { ...newOnly(page, cursor), seenUpTo: next };
    if (!next) return;
    from = next;
  }
}

/** The latest page (no cursor), for the newest threads first after a gap; what it holds is ahead of the walk. */
export async function latestThreads(api: ServiceApi, cursor: Cursor | null, limit: number): Promise<Omit<NewThreads, 'seenUpTo'>> {
  return newOnly(await api.threads(limit, null), cursor);
}

// A service that ignored the cursor would send old threads again: only those after it count.
function newOnly(page: Awaited<ReturnType<ServiceApi['threads']>>, cursor: Cursor | null) {
  const threads = new Map<string, Thread>();
  for (const thread of page.threads) if (mayBeNew(thread, cursor)) threads.set(thread.id, thread);
  const malformed = new Map<string, MalformedThread>();
  for (const bad of page.malformed) if (mayBeNew(bad, cursor) && !threads.has(bad.id)) malformed.set(bad.id, bad);
  return { threads: [...threads.values()], malformed: [...malformed.values()], undated: page.undated, unidentifiable: page.unidentifiable };
}
