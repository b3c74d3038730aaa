// GET /thread and GET /thread/:id against docs/service.md#thread-list: limits, the (timestamp, id)
// cursor with equal timestamps, both orders, 404.
import { describe, expect, it } from 'vitest';
import { HOUR, MINUTE, call, register, start } from './helpers.js';

const THREAD_FIELDS = ['citations', 'id', 'locked', 'pollen_id', 'price_on_fetch', 'project_id', 'text', 'timestamp'];
const T0 = Date.UTC(2025, 0, 6, 12, 0, 0);

async function withThreads(count: number, options: Parameters<typeof start>[0] = {}) {
  const harness = await start(options);
  for (let i = 0; i < count; i++) {
    harness.sandbox.addThread({ id: `t${String(i).padStart(3, '0')}`, timestamp: T0 - (count - i) * MINUTE });
  }
  const { key } = await register(harness.url, 'reader-bee');
  return { ...harness, key };
}

const ids = (threads: { id: string }[]) => threads.map((thread) => thread.id);

describe('GET /thread', () => {
  it('returns a bare array of thread objects with exactly the fields of docs/service.md#thread-list', async () => {
    const { url, key } = await withThreads(3);
    const res = await call(url, 'GET', '/thread', { key });
    expect(res.status).toBe(200);
    expect(Array.isArray(res.body)).toBe(true);
    for (const thread of res.body) {
      expect(Object.keys(thread).sort()).toEqual(THREAD_FIELDS);
      expect(thread.project_id).toMatch(/^c\/[a-z]+$/);
      expect(typeof thread.price_on_fetch).toBe('number');
      expect(thread.locked).toBe(false);
      expect(new Date(thread.timestamp).toISOString()).toBe(thread.timestamp);
      for (const citation of thread.citations) expect(Object.keys(citation).sort()).toEqual(['title', 'url']);
    }
  });

  it('without a cursor: the latest 50 by default, oldest first', async () => {
    const { url, key } = await withThreads(60);
    const res = await call(url, 'GET', '/thread', { key });
    expect(ids(res.body)).toEqual(Array.from({ length: 50 }, (_, i) => `t${String(i + 10).padStart(3, '0')}`));
  });

  it('accepts limit 1 and 100, refuses 0, 101, negatives, fractions and words', async () => {
    const { url, key } = await withThreads(120);
    expect((await call(url, 'GET', '/thread?limit=1', { key })).body).toHaveLength(1);
    expect((await call(url, 'GET', '/thread?limit=100', { key })).body).toHaveLength(100);
    for (const limit of ['0', '101', '-1', '1.5', 'ten', '', '1e2', '5&limit=6']) {
      const res = await call(url, 'GET', `/thread?limit=${limit}`, { key });
      expect(res.status, limit).toBe(400);
      expect(res.body.error).toBe('invalid_query');
    }
  });

  it('with a cursor: the threads strictly after it, oldest first, at most limit', async () => {
    const { url, key, sandbox } = await withThreads(10);
    const all = sandbox.store.threads();
    const cursor = all[3]!;
    const res = await call(
      url,
      'GET',
      `/thread?timestamp=${encodeURIComponent(cursor.timestamp)}&id=${cursor.id}&limit=4`,
      { key },
    );
    expect(ids(res.body)).toEqual(['t004', 't005', 't006', 't007']);
    const last = all[9]!;
    const none = await call(url, 'GET', `/thread?timestamp=${encodeURIComponent(last.timestamp)}&id=${last.id}`, {
      key,
    });
    expect(none.body).toEqual([]);
  });

  it('breaks equal timestamps by id, so paging by the last (timestamp, id) sees each thread once', async () => {
    const { sandbox, url } = await start();
    const same = new Date(T0).toISOString();
    for (const id of ['b', 'a', 'd', 'c', 'e']) sandbox.addThread({ id, timestamp: same });
    sandbox.addThread({ id: '0', timestamp: T0 + 1 });
    const { key } = await register(url, 'pager-bee');
    expect(ids((await call(url, 'GET', '/thread?limit=2', { key })).body)).toEqual(['e', '0']);
    const seen: string[] = [];
    // Start from a cursor just before them all, then keep the last thread of each page as the cursor.
    let cursor = { timestamp: new Date(T0 - 1).toISOString(), id: 'zzz' };
    for (let page = 0; page < 10; page++) {
      const query = `limit=2&timestamp=${encodeURIComponent(cursor.timestamp)}&id=${encodeURIComponent(cursor.id)}`;
      const res = await call(url, 'GET', `/thread?${query}`, { key });
      if (res.body.length === 0) break;
      seen.push(...ids(res.body));
      cursor = res.body[res.body.length - 1];
    }
    expect(seen).toEqual(['a', 'b', 'c', 'd', 'e', '0']);
  });

  it('accepts a cursor timestamp with an offset or microseconds, as the same instant', async () => {
    const { url, key } = await withThreads(5);
    const at = '2025-01-06T13:57:00+02:00'; // = 11:57Z, the timestamp of t002
    expect(ids((await call(url, 'GET', `/thread?timestamp=${encodeURIComponent(at)}&id=t002`, { key })).body)).toEqual([
      't003',
      't004',
    ]);
    const micro = '2025-01-06T11:57:00.000000Z';
    expect(ids((await call(url, 'GET', `/thread?timestamp=${micro}&id=t002`, { key })).body)).toEqual(['t003', 't004']);
  });

  it('400 for half a cursor or a timestamp that is not ISO 8601', async () => {
    const { url, key } = await withThreads(2);
    for (const query of [
      'timestamp=2025-01-06T12:00:00Z',
      'id=t001',
      'timestamp=yesterday&id=t001',
      'timestamp=1736164800000&id=t001',
      'timestamp=2025-01-06T12:00:00Z&id=',
    ]) {
      const res = await call(url, 'GET', `/thread?${query}`, { key });
      expect(res.status, query).toBe(400);
    }
  });

  it('serves the same page newest-first with listOrder desc', async () => {
    const { url, key, sandbox } = await withThreads(10, { listOrder: 'desc' });
    expect(ids((await call(url, 'GET', '/thread?limit=3', { key })).body)).toEqual(['t009', 't008', 't007']);
    const cursor = sandbox.store.threads()[2]!;
    const page = await call(url, 'GET', `/thread?limit=3&timestamp=${encodeURIComponent(cursor.timestamp)}&id=t002`, {
      key,
    });
    expect(ids(page.body)).toEqual(['t005', 't004', 't003']);
    sandbox.settings.listOrder = 'asc';
    expect(ids((await call(url, 'GET', '/thread?limit=3', { key })).body)).toEqual(['t007', 't008', 't009']);
  });

  it('wraps the list as {threads, total} when asked', async () => {
    const { url, key } = await withThreads(5, { wrap: true });
    const res = await call(url, 'GET', '/thread?limit=2', { key });
    expect(res.body.total).toBe(5);
    expect(ids(res.body.threads)).toEqual(['t003', 't004']);
  });

  it('reports locked from the clock: 3 hours after creation, or by hand', async () => {
    const { url, key, sandbox, clock } = await withThreads(0);
    sandbox.addThread({ id: 'fresh' });
    sandbox.addThread({ id: 'manual', locked: true });
    const locked = async () =>
      Object.fromEntries(
        (await call(url, 'GET', '/thread', { key })).body.map((t: { id: string; locked: boolean }) => [t.id, t.locked]),
      );
    expect(await locked()).toEqual({ fresh: false, manual: true });
    clock.advance(3 * HOUR - 1);
    expect((await locked()).fresh).toBe(false);
    clock.advance(1);
    expect((await locked()).fresh).toBe(true);
  });

  it('401 without a key', async () => {
    const { url } = await withThreads(1);
    expect((await call(url, 'GET', '/thread')).status).toBe(401);
  });
});

describe('GET /thread/:id', () => {
  it('returns one thread object, the same as in the list', async () => {
    const { url, key } = await withThreads(3);
    const list = (await call(url, 'GET', '/thread', { key })).body;
    const one = await call(url, 'GET', '/thread/t001', { key });
    expect(one.status).toBe(200);
    expect(one.body).toEqual(list.find((t: { id: string }) => t.id === 't001'));
  });

  it('decodes the id from the path', async () => {
    const { url, sandbox } = await start();
    sandbox.addThread({ id: 'odd id/é' });
    const { key } = await register(url, 'decode-bee');
    const res = await call(url, 'GET', `/thread/${encodeURIComponent('odd id/é')}`, { key });
    expect(res.body.id).toBe('odd id/é');
  });

  it('404 {"error":"not_found"} for an unknown id; 401 first without a key', async () => {
    const { url, key } = await withThreads(1);
    const res = await call(url, 'GET', '/thread/nope', { key });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('not_found');
    expect((await call(url, 'GET', '/thread/nope')).status).toBe(401);
  });

  it('wraps as {thread, comment_count} when asked', async () => {
    const { url, key } = await withThreads(2, { wrap: true });
    const res = await call(url, 'GET', '/thread/t000', { key });
    expect(res.body.thread.id).toBe('t000');
    expect(res.body.comment_count).toBe(0);
  });
});
