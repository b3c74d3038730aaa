import { describe, expect, it } from 'vitest';
import type { Thread } from '../../src/domain/thread.js';
import { ServerError } from '../../src/errors.js';
import { compareKey, type Cursor, isAfter } from '../../src/domain/cursor.js';
import { latestThreads, walkNewThreads } from '../../src/poll/fetch-new.js';
import type { MalformedThread, ThreadPage } from '../../src/service/api.js';
import { fakeApi } from '../support/fake-api.js';
import { page, thread } from '../support/threads.js';

const at = (minute: number) => new Date(Date.UTC(2025, 5, 1, 12, minute)).toISOString();
const threads = (n: number, from = 1) => Array.from({ length: n }, (_, i) => thread(`t${from + i}`, at(from + i)));
/** Where a walk from `cursor` starts: 1 ms before its instant, so every thread at that instant comes back. */
const justBefore = (cursor: Cursor): Cursor => ({
  timestamp: new Date(Date.parse(cursor.timestamp) - 1).toISOString(),
  id: cursor.id,
});
const ids = (list: Array<{ id: string }>) =>
  list.map((t) => t.id).sort((a, b) => Number(a.slice(1)) - Number(b.slice(1)));

type Order = 'oldest-first' | 'newest-first' | 'shuffled';
function arrange(list: Thread[], order: Order): Thread[] {
  const sorted = [...list].sort(compareKey);
  if (order === 'oldest-first') return sorted;
  if (order === 'newest-first') return sorted.reverse();
  return sorted
    .map((t, i) => ({ t, k: (i * 7919) % 13 }))
    .sort((a, b) => a.k - b.k)
    .map(({ t }) => t);
}

/** A service that honours the cursor: the oldest `limit` threads after it, in the given order. */
function honest(all: Thread[], order: Order = 'oldest-first') {
  const cursors: Array<Cursor | null> = [];
  const api = fakeApi({
    async threads(limit, cursor) {
      cursors.push(cursor);
      const after = [...all]
        .sort(compareKey)
        .filter((t) => isAfter(t, cursor))
        .slice(0, limit);
      return page(arrange(after, order));
    },
  });
  return { api, cursors };
}

/** A service that answers from a script, one page per call. */
function scripted(pages: ThreadPage[]) {
  const cursors: Array<Cursor | null> = [];
  const api = fakeApi({
    async threads(_limit, cursor) {
      cursors.push(cursor);
      const next = pages.shift();
      if (!next) throw new Error('asked for more pages than the script has');
      return next;
    },
  });
  return { api, cursors };
}

const NOW = Date.parse(at(60));

/** The whole walk, pages merged as a run sees them over its pages. */
async function fetchNewThreads(api: ReturnType<typeof fakeApi>, cursor: Cursor | null, limit: number) {
  const found = new Map<string, Thread>();
  const malformed = new Map<string, MalformedThread>();
  const seenUpTo: Array<Cursor | undefined> = [];
  let unidentifiable = 0;
  for await (const one of walkNewThreads(api, cursor, limit)) {
    for (const t of one.threads) found.set(t.id, t);
    for (const bad of one.malformed) if (!found.has(bad.id)) malformed.set(bad.id, bad);
    unidentifiable += one.unidentifiable;
    seenUpTo.push(one.seenUpTo);
  }
  for (const id of found.keys()) malformed.delete(id);
  return {
    threads: [...found.values()],
    malformed: [...malformed.values()],
    unidentifiable,
    pages: seenUpTo.length,
    seenUpTo,
  };
}

describe('walkNewThreads', () => {
  it('one short page: one call, with the limit, from just before the cursor', async () => {
    const limits: number[] = [];
    const cursor = { timestamp: at(0), id: 't0' };
    const api = fakeApi({
      async threads(limit, from) {
        limits.push(limit);
        expect(from).toEqual(justBefore(cursor));
        return page(threads(2));
      },
    });
    const result = await fetchNewThreads(api, cursor, 50);
    expect(limits).toEqual([50]);
    expect(ids(result.threads)).toEqual(['t1', 't2']);
    expect(result).toMatchObject({ malformed: [], unidentifiable: 0, pages: 1 });
  });

  it.each([
    ['one thread a page', 1, ['t1']],
    ['nothing new', 50, []],
  ])(
    "a short page of the cursor's own instant only (%s): asked once more, from the cursor itself",
    async (_name, size, fresh) => {
      const cursor = { timestamp: at(0), id: 't0' };
      const all = [thread('t0', at(0)), ...(size === 1 ? threads(3) : [])];
      // Whatever limit is asked, `size` threads at most: the oldest after the cursor.
      const cursors: Array<Cursor | null> = [];
      const api = fakeApi({
        async threads(_limit, from) {
          cursors.push(from);
          return page(all.filter((t) => isAfter(t, from)).slice(0, size));
        },
      });
      const result = await fetchNewThreads(api, cursor, 50);
      expect(cursors).toEqual([justBefore(cursor), cursor]);
      // One page to the run, which goes on from it next time: one new thread a run at least, never none.
      expect(result.pages).toBe(1);
      expect(ids(result.threads)).toEqual(fresh);
      expect(result.seenUpTo).toEqual([undefined]);
    },
  );

  it.each([
    [7, 3, 3, ['null', 't3', 't6']],
    [6, 3, 3, ['null', 't3', 't6']],
    [2, 3, 1, ['null']],
    [0, 3, 1, ['null']],
  ])('%i new threads, limit %i: %i pages, each from the newest of the page before', async (n, limit, pages, from) => {
    const { api, cursors } = honest(threads(n));
    const result = await fetchNewThreads(api, null, limit);
    expect(ids(result.threads)).toEqual(threads(n).map((t) => t.id));
    expect(result.pages).toBe(pages);
    expect(cursors.map((c) => c?.id ?? 'null')).toEqual(from);
  });

  it.each(['oldest-first', 'newest-first', 'shuffled'] as const)(
    'an array %s gives the same result and the same page cursors',
    async (order) => {
      const reference = honest(threads(8));
      const expected = await fetchNewThreads(reference.api, { timestamp: at(0), id: 't0' }, 3);
      const { api, cursors } = honest(threads(8), order);
      const result = await fetchNewThreads(api, { timestamp: at(0), id: 't0' }, 3);
      expect(ids(result.threads)).toEqual(ids(expected.threads));
      expect(cursors).toEqual(reference.cursors);
    },
  );

  it('stops when the service ignores the cursor (the same full page again), without duplicates', async () => {
    const latest = threads(3, 5);
    const { api, cursors } = scripted([page(latest), page([...latest].reverse())]);
    const result = await fetchNewThreads(api, null, 3);
    expect(ids(result.threads)).toEqual(['t5', 't6', 't7']);
    expect(cursors.map((c) => c?.id ?? null)).toEqual([null, 't7']);
    expect(result.pages).toBe(2);
  });

  it('keeps only threads after the cursor when the service sends older ones too', async () => {
    const cursor = { timestamp: at(5), id: 't5' };
    const { api } = scripted([
      page([
        ...threads(6, 1),
        thread('t4-same-instant-smaller-id', at(5)),
        thread('t6-same-instant-larger-id', at(5)),
        thread('t5', at(5)),
      ]),
    ]);
    const result = await fetchNewThreads(api, { ...cursor, id: 't5' }, 50);
    // At the cursor's own instant the service may order ties otherwise: those are left to the journal.
    expect(ids(result.threads).sort()).toEqual(['t4-same-instant-smaller-id', 't6', 't6-same-instant-larger-id']);
  });

  it('the cursor thread sent again (an inclusive cursor) is not new, and pages still advance', async () => {
    const all = threads(5);
    const cursors: Array<Cursor | null> = [];
    const api = fakeApi({
      async threads(limit, cursor) {
        cursors.push(cursor);
        // Inclusive: the cursor's own thread comes back first.
        return page(all.filter((t) => !cursor || compareKey(t, cursor) >= 0).slice(0, limit));
      },
    });
    const result = await fetchNewThreads(api, { timestamp: at(1), id: 't1' }, 2);
    expect(ids(result.threads)).toEqual(['t2', 't3', 't4', 't5']);
    expect(cursors.map((c) => c?.id)).toEqual(['t1', 't2', 't3', 't4', 't5']);
  });

  it('dedupes a thread met on two pages', async () => {
    const { api } = scripted([page(threads(3, 1)), page([thread('t3', at(3)), thread('t4', at(4))])]);
    const result = await fetchNewThreads(api, null, 3);
    expect(ids(result.threads)).toEqual(['t1', 't2', 't3', 't4']);
  });

  it('walks on as long as pages come back full: a run is bounded by its time, not by a page count', async () => {
    let n = 0;
    const api = fakeApi({
      async threads(limit) {
        const next = n < 300 ? threads(limit, n + 1) : [];
        n += limit;
        return page(next);
      },
    });
    const result = await fetchNewThreads(api, null, 2);
    expect(result.threads).toHaveLength(300);
    expect(result.pages).toBe(151);
  });

  it('each page says how far the walk has seen: up to its newest thread while full, everything once short', async () => {
    const { api } = honest(threads(5));
    const result = await fetchNewThreads(api, null, 2);
    expect(result.seenUpTo).toEqual([{ timestamp: at(2), id: 't2' }, { timestamp: at(4), id: 't4' }, undefined]);
  });

  it('threads dated in the future move the walk on like any other: a full page of them hides nothing after it', async () => {
    // A sandbox with a fast clock, or a service's time-zone mistake: they sort last, and pages of them follow.
    const future = (id: string, hours: number) => thread(id, new Date(NOW + hours * 60 * 60_000).toISOString());
    const { api, cursors } = honest([thread('t1', at(1)), future('f1', 3), future('f2', 4), future('f3', 5)]);
    const result = await fetchNewThreads(api, null, 2);
    expect(ids(result.threads).sort()).toEqual(['f1', 'f2', 'f3', 't1']);
    expect(cursors.map((c) => c?.id ?? null)).toEqual([null, 'f1', 'f3']);
  });

  it('a full page of nothing identifiable ends the paging', async () => {
    const { api } = scripted([page([], { size: 3, unidentifiable: 3 })]);
    await expect(fetchNewThreads(api, null, 3)).resolves.toEqual({
      threads: [],
      malformed: [],
      unidentifiable: 3,
      pages: 1,
      seenUpTo: [undefined],
    });
  });

  it('malformed threads: kept after the cursor, deduped, dropped once a good copy appears; unidentifiable ones counted', async () => {
    const bad = (id: string, minute: number): MalformedThread => ({
      id,
      timestamp: at(minute),
      reason: `malformed ${id}`,
    });
    const cursor = { timestamp: at(1), id: 't1' };
    const { api, cursors } = scripted([
      page([thread('t2', at(2))], {
        malformed: [bad('t0', 0), bad('t3', 3), bad('t4', 4)],
        unidentifiable: 1,
        size: 5,
      }),
      page([thread('t4', at(4)), thread('t5', at(5))], { malformed: [bad('t3', 3)], unidentifiable: 2, size: 4 }),
    ]);
    const result = await fetchNewThreads(api, cursor, 5);
    expect(ids(result.threads)).toEqual(['t2', 't4', 't5']);
    expect(result.malformed).toEqual([bad('t3', 3)]);
    expect(result.unidentifiable).toBe(3);
    // The newest of page 1 was a malformed one: paging still moves past it.
    expect(cursors).toEqual([justBefore(cursor), { timestamp: at(4), id: 't4' }]);
  });

  it('a page is handed over before the next is asked for; an error on a later page is thrown then', async () => {
    const api = fakeApi({
      async threads(_limit, cursor) {
        if (cursor) throw new ServerError('the service failed (503)', 503);
        return page(threads(2));
      },
    });
    const walk = walkNewThreads(api, null, 2);
    expect(ids((await walk.next()).value!.threads)).toEqual(['t1', 't2']);
    await expect(walk.next()).rejects.toBeInstanceOf(ServerError);
  });

  it('the latest page is asked for without a cursor, and keeps only what may be new', async () => {
    const cursors: Array<Cursor | null> = [];
    const api = fakeApi({
      async threads(_limit, cursor) {
        cursors.push(cursor);
        return page(threads(4));
      },
    });
    const latest = await latestThreads(api, { timestamp: at(2), id: 't2' }, 50);
    expect(ids(latest.threads)).toEqual(['t3', 't4']);
    expect(cursors).toEqual([null]);
  });

  it('asks nothing but the thread list', async () => {
    const { api } = honest(threads(1));
    await fetchNewThreads(api, null, 50);
    expect(api.calls).toEqual(['threads']);
  });
});
