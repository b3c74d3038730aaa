import type { Thread } from '../domain/thread.js';
import type { Cursor } from '../domain/cursor.js';
import type { MalformedThread, ServiceApi, ThreadPage, UndatedThread } from '../service/api.js';
import { compareKey, isAfter, maxKey, mayBeNew } from '../domain/cursor.js';

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
 * still moves the walk on (the service lists it where its date puts it); only the saved cursor never
 * passes the present for it (ledger.ts).
 */
export async function* walkNewThreads(
  api: ServiceApi,
  cursor: Cursor | null,
  limit: number,
): AsyncGenerator<NewThreads> {
  let from = cursor && justBefore(cursor);
  let atCursor: ThreadPage | undefined;
  for (;;) {
    const page = await api.threads(limit, from);
    const full = page.size >= limit;
    const newest = maxKey([...page.threads, ...page.malformed]);
    // No progress means the service ignores the cursor: asking again would loop.
    const next =
      full && newest && (!from || compareKey(newest, from) > 0)
        ? { timestamp: newest.timestamp, id: newest.id }
        : undefined;
    if (!next && cursor && !atCursor && page.size > 0 && !(newest && isAfter(newest, cursor))) {
      // Short, and nothing past the cursor in it: nothing new, or a service that sends fewer than asked
      // (docs/service.md) filled it with the threads at the cursor's instant, and every run would end on
      // this same page. Asked once more from the cursor itself, the walk goes on past them; the two
      // answers are one page to the run.
      atCursor = page;
      from = cursor;
      continue;
    }
    yield { ...newOnly(atCursor ? [atCursor, page] : [page], cursor), seenUpTo: next };
    atCursor = undefined;
    if (!next) return;
    from = next;
  }
}

/**
 * The walk starts from just before the cursor's instant: the service may order the threads that share it
 * unlike this client does (ids as numbers, say), and one it places before the cursor's id would never be
 * sent again. Those threads come back once more each run; the journal, which keeps every entry at the
 * cursor's instant, tells which of them were handled.
 */
function justBefore(cursor: Cursor): Cursor {
  return { timestamp: new Date(Date.parse(cursor.timestamp) - 1).toISOString(), id: cursor.id };
}

/** The latest page (no cursor), for the newest threads first after a gap; what it holds is ahead of the walk. */
export async function latestThreads(
  api: ServiceApi,
  cursor: Cursor | null,
  limit: number,
): Promise<Omit<NewThreads, 'seenUpTo'>> {
  return newOnly([await api.threads(limit, null)], cursor);
}

// A service that ignored the cursor would send old threads again: only those after it count.
function newOnly(pages: readonly ThreadPage[], cursor: Cursor | null) {
  const threads = new Map<string, Thread>();
  const malformed = new Map<string, MalformedThread>();
  for (const page of pages)
    for (const thread of page.threads) if (mayBeNew(thread, cursor)) threads.set(thread.id, thread);
  for (const page of pages)
    for (const bad of page.malformed) if (mayBeNew(bad, cursor) && !threads.has(bad.id)) malformed.set(bad.id, bad);
  return {
    threads: [...threads.values()],
    malformed: [...malformed.values()],
    undated: pages.flatMap((page) => page.undated),
    unidentifiable: pages.reduce((sum, page) => sum + page.unidentifiable, 0),
  };
}
