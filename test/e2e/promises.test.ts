// Faults that once doubled or lost a prediction: each test replays one against the built binary. The
// threads carry no citations, so the built-in analyzer's decision on them rests on the text alone.
import { describe, expect, it } from 'vitest';
import type { ThreadView } from '../../src/sandbox/views.js';
import { BEARISH, BULLISH, minutesAgo, countPosts, registeredWorlds, type World } from './harness.js';

const registered = registeredWorlds();
const at = minutesAgo;
const DAY_MS = 24 * 60 * 60_000;

/** Answers every POST on `id` with a 500, so that thread stays due and holds the cursor. */
function failPostsOn(w: World, id: string): () => void {
  return w.sandbox.intercept((req, res) => {
    if (req.method !== 'POST' || req.url !== `/comment/${id}`) return false;
    res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":"internal"}');
    return true;
  });
}

/**
 * Serves GET /thread from `views` in pages of `size`, whatever limit was asked for, as a service may: after
 * the cursor (timestamp, then id as text), or the latest without one.
 */
function serveIgnoringLimit(w: World, views: ThreadView[], size: number): void {
  const key = (v: { timestamp: string; id: string }) => [Date.parse(v.timestamp), v.id] as const;
  const after = (a: readonly [number, string], b: readonly [number, string]) =>
    a[0] > b[0] || (a[0] === b[0] && a[1] > b[1]);
  const sorted = [...views].sort((a, b) => (after(key(a), key(b)) ? 1 : -1));
  w.sandbox.intercept((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (req.method !== 'GET' || url.pathname !== '/thread') return false;
    const timestamp = url.searchParams.get('timestamp');
    const cursor =
      timestamp === null ? undefined : ([Date.parse(timestamp), url.searchParams.get('id') ?? ''] as const);
    const page = cursor ? sorted.filter((v) => after(key(v), cursor)).slice(0, size) : sorted.slice(-size);
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(page));
    return true;
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('no prediction twice', () => {
  it('a thread whose id is __proto__ is posted once, by poll, and predict does not post it again', async () => {
    const w = await registered();
    const posts = countPosts(w);
    failPostsOn(w, 'due');
    w.sandbox.addThread({ id: 'due', text: BULLISH, citations: [], project_id: 'c/bitcoin', timestamp: at(10) });
    w.sandbox.addThread({ id: '__proto__', text: BULLISH, citations: [], project_id: 'c/bitcoin', timestamp: at(5) });
    for (let run = 0; run < 3; run++) expect((await w.agent(['poll'])).code).toBe(5); // 'due' fails each time
    const journal = Object.entries(w.state().journal as object);
    expect(journal).toContainEqual(['__proto__', expect.objectContaining({ status: 'posted' })]);
    const predict = await w.agent(['predict', '__proto__', '--conviction', '1', '--json']);
    expect(JSON.parse(predict.stdout)).toMatchObject({ action: 'skip', reason: expect.stringContaining('already') });
    expect(posts.get('__proto__')).toBe(1);
  });

  it('a service that ignores limit: 12,000 threads handled behind one still due, none posted twice', {
    timeout: 240_000,
  }, async () => {
    const w = await registered();
    w.sandbox.addThread({ id: 'base', text: BULLISH, timestamp: at(170), locked: true });
    expect((await w.agent(['poll'])).code).toBe(0);
    const posts = countPosts(w);
    failPostsOn(w, 'due');
    const start = Date.now() - 150 * 60_000; // all within the last 2.5 hours: the service would lock the rest
    const views = [
      w.sandbox.addThread({
        id: 'due',
        text: BULLISH,
        citations: [],
        project_id: 'c/bitcoin',
        timestamp: new Date(start).toISOString(),
      }),
    ];
    for (let i = 0; i < 12_000; i++) {
      const open = i < 200; // the open ones come first, so a journal that drops its oldest entries loses them
      views.push(
        w.sandbox.addThread({
          id: `t${i}`,
          text: BULLISH,
          citations: [],
          project_id: 'c/bitcoin',
          timestamp: new Date(start + 1 + i * 500).toISOString(),
          locked: !open,
        }),
      );
    }
    serveIgnoringLimit(w, views, 1_000);
    for (let run = 0; run < 3; run++) {
      const result = await w.agent(['poll', '--limit', '100'], { timeoutMs: 120_000 });
      expect(result.code, result.stderr).toBe(5); // 'due' fails each time
    }
    const counts = [...posts].filter(([id]) => id !== 'due').map(([, n]) => n);
    expect(counts).toHaveLength(200);
    expect(Math.max(...counts)).toBe(1);
  });

  it('a thread over a week old that is still open: poll posts on it and predict never again', async () => {
    const w = await registered({ clock: { now: () => Date.now() - 8 * DAY_MS } });
    const posts = countPosts(w);
    w.sandbox.addThread({ id: 'aged', text: BULLISH, citations: [], project_id: 'c/bitcoin' }); // dated the service's "now", 8 days ago
    expect((await w.agent(['poll'])).code).toBe(0);
    const predict = await w.agent(['predict', 'aged', '--conviction', '1', '--json']);
    expect(JSON.parse(predict.stdout)).toMatchObject({ action: 'skip', reason: expect.stringContaining('already') });
    expect(posts.get('aged')).toBe(1);
  });
});

describe('no thread lost', () => {
  it('a thread dated in the future does not hide the threads after it, and the run says so once', async () => {
    const w = await registered();
    w.sandbox.addThread({ id: 'base', text: BULLISH, timestamp: at(30), locked: true });
    expect((await w.agent(['poll'])).code).toBe(0);
    const aheadAt = new Date(Date.now() + 3 * 60 * 60_000).toISOString();
    w.sandbox.addThread({ id: 'ahead', text: BULLISH, citations: [], project_id: 'c/bitcoin', timestamp: aheadAt });
    w.sandbox.addThread({
      id: 'ahead2',
      text: BEARISH,
      citations: [],
      project_id: 'c/bitcoin',
      timestamp: new Date(Date.now() + 4 * 60 * 60_000).toISOString(),
    });
    // Pages of one: the walk goes on past a page of future threads.
    const first = await w.agent(['poll', '--limit', '1']);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/^agent: 2 threads are dated ahead of this machine's clock \(now \d{4}-\d\d-\d\dT/),
    ]);
    // The thread's own time is said as the thread's, never in the place of the clock's.
    const [, clock, earliest] = /clock \(now (\S+)\), the earliest, ahead, at (\S+):/.exec(first.stderr) ?? [];
    expect(earliest).toBe(aheadAt);
    expect(Date.parse(clock!)).toBeLessThan(Date.parse(aheadAt));
    expect(Date.parse(w.state().cursor!.timestamp)).toBeLessThanOrEqual(Date.now());

    w.sandbox.addThread({ id: 'later', text: BEARISH, citations: [], project_id: 'c/bitcoin', timestamp: at(0) });
    const second = await w.agent(['poll']);
    expect(second).toMatchObject({ code: 0, stderr: '' });
    expect(
      w.sandbox
        .comments()
        .map((c) => c.thread_id)
        .sort(),
    ).toEqual(['ahead', 'ahead2', 'later']);
  });

  it('a post answered 500, then a run refused with 401: the thread is still posted, once, by the run after', async () => {
    const w = await registered();
    w.sandbox.addThread({ id: 'base', text: BULLISH, timestamp: at(30), locked: true });
    expect((await w.agent(['poll'])).code).toBe(0);
    w.sandbox.addThread({ id: 'a', text: BULLISH, citations: [], project_id: 'c/bitcoin', timestamp: at(2) });
    const stopFailing = failPostsOn(w, 'a');
    expect((await w.agent(['poll'])).code).toBe(5);
    expect(w.state().journal).not.toHaveProperty(['a', 'status'], 'posting');
    stopFailing();

    // The retry's POST is refused: the run stops there, with the thread's "posting" mark on disk to undo.
    const stopRefusing = w.sandbox.intercept((req, res) => {
      if (req.method !== 'POST') return false;
      res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"unauthorized"}');
      return true;
    });
    expect((await w.agent(['poll'])).code).toBe(3);
    stopRefusing();

    const last = await w.agent(['poll', '--json']);
    expect(last.code).toBe(0);
    expect(JSON.parse(last.stdout).posted).toEqual([expect.objectContaining({ threadId: 'a' })]);
    expect(w.sandbox.comments().map((c) => c.thread_id)).toEqual(['a']);
  });

  it('threads sharing one timestamp with ids that order as numbers (9, 10, 11, then 12) are all posted', async () => {
    const w = await registered();
    w.sandbox.addThread({ id: 'base', text: BULLISH, timestamp: at(30), locked: true });
    expect((await w.agent(['poll'])).code).toBe(0);
    const same = at(2);
    for (const id of ['9', '10', '11'])
      w.sandbox.addThread({ id, text: BULLISH, citations: [], project_id: 'c/bitcoin', timestamp: same });
    expect((await w.agent(['poll'])).code).toBe(0);
    w.sandbox.addThread({ id: '12', text: BULLISH, citations: [], project_id: 'c/bitcoin', timestamp: same });
    expect((await w.agent(['poll'])).code).toBe(0);
    expect(
      w.sandbox
        .comments()
        .map((c) => c.thread_id)
        .sort(),
    ).toEqual(['10', '11', '12', '9']);
  });

  it('pages that each take a second: a run killed after a few seconds has posted and saved what it fetched', async () => {
    const w = await registered();
    w.sandbox.addThread({ id: 'base', text: BULLISH, timestamp: at(170), locked: true });
    expect((await w.agent(['poll'])).code).toBe(0);
    for (let i = 0; i < 600; i++) {
      w.sandbox.addThread({
        id: `s${String(i).padStart(3, '0')}`,
        text: BULLISH,
        citations: [],
        project_id: 'c/bitcoin',
        timestamp: at(160 - i / 4),
        locked: i < 500,
      });
    }
    const posts = countPosts(w);
    const stopDelaying = w.sandbox.intercept(async (req) => {
      if (req.method === 'GET' && req.url?.startsWith('/thread?')) await sleep(1000);
      return false;
    });
    const killed = await w.agent(['poll'], { timeoutMs: 5_000 });
    expect(killed.code).toBeNull(); // SIGKILL: the run had not finished its 13 pages
    const statuses = () =>
      Object.values((w.state().journal ?? {}) as Record<string, { status: string }>).map((e) => e.status);
    const posted = w.sandbox.comments().length;
    expect(posted).toBeGreaterThan(0);
    expect(statuses().filter((s) => s === 'posted')).toHaveLength(posted);

    stopDelaying();
    expect((await w.agent(['poll'])).code).toBe(0);
    // A post the kill may have cut off in flight is never sent again: it is "unknown", not posted twice.
    const unknown = statuses().filter((s) => s === 'unknown').length;
    expect(unknown).toBeLessThanOrEqual(8);
    expect(w.sandbox.comments().length + unknown).toBe(100);
    expect(Math.max(...posts.values())).toBe(1);
  });

  it('after a long gap, the first run posts on every thread still open, behind 10,000 locked ones', {
    timeout: 120_000,
  }, async () => {
    const w = await registered();
    w.sandbox.addThread({
      id: 'base',
      text: BULLISH,
      timestamp: new Date(Date.now() - 7 * DAY_MS).toISOString(),
      locked: true,
    });
    expect((await w.agent(['poll'])).code).toBe(0);
    // A week of history, locked as the service locks threads after 3 hours, then 215 open in the last 2.5 hours.
    const since = Date.now() - 7 * DAY_MS + 60_000;
    const lockedStep = (7 * DAY_MS - 4 * 60 * 60_000) / 9_785;
    const openStep = (150 * 60_000) / 215;
    for (let i = 0; i < 10_000; i++) {
      const timestamp = i < 9_785 ? since + i * lockedStep : Date.now() - 150 * 60_000 + (i - 9_785) * openStep;
      w.sandbox.addThread({
        id: `g${i}`,
        text: BULLISH,
        citations: [],
        project_id: 'c/bitcoin',
        timestamp: new Date(timestamp).toISOString(),
        locked: i < 9_785,
      });
    }
    const result = await w.agent(['poll', '--json'], { timeoutMs: 100_000 });
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout).posted).toHaveLength(215);
    expect(w.sandbox.comments()).toHaveLength(215);
    expect(w.state().cursor!.id).toBe('g9999');
  });
});

describe('a pause the service asks for', () => {
  it('is stored when the 429 arrives: a run killed while it waits leaves it, and the next run sends nothing', async () => {
    const w = await registered();
    w.sandbox.addThread({ id: 'x', text: BULLISH, citations: [], project_id: 'c/bitcoin', timestamp: at(1) });
    w.sandbox.intercept((req, res) => {
      if (req.method !== 'POST') return false;
      res.writeHead(429, { 'retry-after': '40' }).end();
      return true;
    });
    const killed = await w.agent(['poll'], { timeoutMs: 3_000 });
    expect(killed.code).toBeNull();
    expect(Date.parse(String(w.state().rateLimitedUntil))).toBeGreaterThan(Date.now() + 30_000);
    const before = w.sandbox.requests.length;
    expect((await w.agent(['poll'])).code).toBe(0);
    expect(w.sandbox.requests).toHaveLength(before);
  });
});
