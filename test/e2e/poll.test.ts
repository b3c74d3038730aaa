import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BEARISH, BIN, BULLISH, createWorld, minutesAgo, registeredWorlds, type World } from './harness.js';

const registered = registeredWorlds();

const at = minutesAgo;
const posts = (w: World) => w.sandbox.requests.filter((r) => r.method === 'POST' && r.path.startsWith('/comment/'));

describe('agent poll', () => {
  it('posts on unlocked threads only, silently under cron, and a second poll posts nothing', async () => {
    const w = await registered();
    w.sandbox.addThread({ id: 'bull', text: BULLISH, project_id: 'c/bitcoin', timestamp: at(3) });
    w.sandbox.addThread({ id: 'bear', text: BEARISH, project_id: 'c/ethereum', timestamp: at(2) });
    w.sandbox.addThread({ id: 'shut', text: BULLISH, project_id: 'c/solana', timestamp: at(1), locked: true });

    const first = await w.agent(['poll']);
    expect(first).toMatchObject({ code: 0, stdout: '', stderr: '' });
    const comments = w.sandbox.comments();
    expect(comments.map((c) => c.thread_id).sort()).toEqual(['bear', 'bull']);
    expect(comments.find((c) => c.thread_id === 'bull')!.conviction).toBeGreaterThan(0);
    expect(comments.find((c) => c.thread_id === 'bear')!.conviction).toBeLessThan(0);
    expect(w.state().cursor).toMatchObject({ id: 'shut' });

    const second = await w.agent(['poll', '--json']);
    expect(second.code).toBe(0);
    expect(JSON.parse(second.stdout)).toEqual({ posted: [], skipped: [], failed: [], cursor: w.state().cursor });
    expect(w.sandbox.comments()).toHaveLength(2);
  });

  it('prints the docs/cli.md JSON shape', async () => {
    const w = await registered();
    w.sandbox.addThread({ id: 't1', text: BULLISH, project_id: 'c/bitcoin', timestamp: at(2) });
    w.sandbox.addThread({ id: 't2', text: BULLISH, timestamp: at(1), locked: true });
    const result = await w.agent(['poll', '--json']);
    expect(result.code).toBe(0);
    const doc = JSON.parse(result.stdout);
    expect(doc).toEqual({
      posted: [
        { threadId: 't1', conviction: expect.any(Number), text: expect.any(String), predictionId: expect.any(String) },
      ],
      skipped: [{ threadId: 't2', reason: 'locked', skipKind: 'locked' }],
      failed: [],
      cursor: { timestamp: expect.any(String), id: 't2' },
    });
    expect(doc.posted[0].predictionId).toBe(w.sandbox.comments()[0]!.id);
  });

  it('handles threads with equal timestamps across pages', async () => {
    const w = await registered();
    w.sandbox.addThread({ id: 'base', text: BULLISH, timestamp: at(10), locked: true });
    expect((await w.agent(['poll'])).code).toBe(0);
    const same = at(2);
    for (const id of ['e1', 'e2', 'e3', 'e4', 'e5'])
      w.sandbox.addThread({ id, text: BULLISH, project_id: 'c/bitcoin', timestamp: same });
    // Pages of two split the run of equal timestamps: only (timestamp, id) as the cursor gets them all.
    expect((await w.agent(['poll', '--limit', '2'])).code).toBe(0);
    expect(
      w.sandbox
        .comments()
        .map((c) => c.thread_id)
        .sort(),
    ).toEqual(['e1', 'e2', 'e3', 'e4', 'e5']);
    expect(w.state().cursor).toEqual({ timestamp: same, id: 'e5' });
  });

  it('pages through more new threads than one page, newest first', async () => {
    const w = await registered();
    w.sandbox.addThread({ id: 'base', text: BULLISH, timestamp: at(30), locked: true });
    expect((await w.agent(['poll'])).code).toBe(0);
    for (let i = 0; i < 12; i++)
      w.sandbox.addThread({
        id: `p${String(i).padStart(2, '0')}`,
        text: BULLISH,
        project_id: 'c/bitcoin',
        timestamp: at(20 - i),
      });
    const result = await w.agent(['poll', '--limit', '5', '--json']);
    expect(result.code).toBe(0);
    const doc = JSON.parse(result.stdout);
    expect(doc.posted).toHaveLength(12);
    expect(doc.posted[0].threadId).toBe('p11');
    expect(doc.cursor.id).toBe('p11');
    expect(
      w.sandbox.requests.filter((r) => r.method === 'GET' && r.path.startsWith('/thread')).length,
    ).toBeGreaterThanOrEqual(4);
  });

  it('copes with a list served newest-first: the cursor is the maximum, not the last element', async () => {
    const w = await registered({ listOrder: 'desc' });
    w.sandbox.addThread({ id: 'base', text: BULLISH, timestamp: at(30), locked: true });
    expect((await w.agent(['poll'])).code).toBe(0);
    for (let i = 0; i < 7; i++)
      w.sandbox.addThread({ id: `d${i}`, text: BEARISH, project_id: 'c/ethereum', timestamp: at(10 - i) });
    expect((await w.agent(['poll', '--limit', '3'])).code).toBe(0);
    expect(w.state().cursor!.id).toBe('d6');
    expect(new Set(w.sandbox.comments().map((c) => c.thread_id)).size).toBe(7);
    expect((await w.agent(['poll'])).code).toBe(0);
    expect(w.sandbox.comments()).toHaveLength(7);
  });

  it('accepts wrapped bodies ({threads}, {comment})', async () => {
    const w = await registered({ wrap: true });
    w.sandbox.addThread({ id: 'w1', text: BULLISH, project_id: 'c/bitcoin', timestamp: at(1) });
    const result = await w.agent(['poll', '--json']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).posted[0].predictionId).toBe(w.sandbox.comments()[0]!.id);
  });

  it('--dry-run prints its decisions even into a pipe', async () => {
    const w = await registered();
    w.sandbox.addThread({ id: 'seen', text: BULLISH, project_id: 'c/bitcoin', timestamp: at(1) });
    const result = await w.agent(['poll', '--dry-run']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^would post +\+\d+\.\d% {2}seen {2}Bullish on c\/bitcoin/m);
    expect(result.stdout).toMatch(/1 would post, 0 skipped, 0 failed/);
  });

  it('--dry-run posts nothing and leaves the state file byte for byte', async () => {
    const w = await registered();
    w.sandbox.addThread({ id: 'dry', text: BULLISH, project_id: 'c/bitcoin', timestamp: at(1) });
    const file = path.join(w.configDir, 'state.json');
    const before = fs.readFileSync(file);
    const result = await w.agent(['poll', '--dry-run', '--json']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).posted).toEqual([
      expect.objectContaining({ threadId: 'dry', predictionId: null }),
    ]);
    expect(posts(w)).toHaveLength(0);
    expect(fs.readFileSync(file)).toEqual(before);
  });

  it('with --verbose under cron prints exactly one summary line on stderr', async () => {
    const w = await registered();
    w.sandbox.addThread({ id: 'v1', text: BULLISH, project_id: 'c/bitcoin', timestamp: at(1) });
    w.sandbox.addThread({ id: 'v2', text: BULLISH, timestamp: at(2), locked: true });
    const result = await w.agent(['poll', '--verbose']);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^agent poll: 1 posted, 1 skipped, 0 failed in \d+\.\d s\n$/);
  });

  it('waits out a 429 (fast-forwarded) and then succeeds', async () => {
    const w = await registered();
    w.sandbox.addThread({ id: 'r1', text: BULLISH, project_id: 'c/bitcoin', timestamp: at(1) });
    let limited = 0;
    w.sandbox.intercept((req, res) => {
      if (req.method !== 'POST' || limited > 0) return false;
      limited += 1;
      res.writeHead(429, { 'retry-after': '5', 'content-type': 'application/json' }).end('{"error":"rate_limited"}');
      return true;
    });
    const result = await w.agent(['poll', '--json'], { env: { AGENT_TEST_FAST_SLEEP: '1' } });
    expect(result.code).toBe(0);
    expect(limited).toBe(1);
    expect(w.sandbox.comments().map((c) => c.thread_id)).toEqual(['r1']);
    expect(w.state().rateLimitedUntil).toBeUndefined();
  });

  it('after a 429 that persists, exits 5, remembers the pause, and the next run sends nothing', async () => {
    const w = await registered();
    w.sandbox.addThread({ id: 'r2', text: BULLISH, project_id: 'c/bitcoin', timestamp: at(1) });
    w.sandbox.intercept((req, res) => {
      if (req.method !== 'POST') return false;
      res.writeHead(429, { 'retry-after': '120' }).end();
      return true;
    });
    const first = await w.agent(['poll'], { env: { AGENT_TEST_FAST_SLEEP: '1' } });
    expect(first.code).toBe(5);
    expect(first.stderr).toContain('rate limited');
    expect(Date.parse(String(w.state().rateLimitedUntil))).toBeGreaterThan(Date.now());
    expect(w.state().cursor).toBeNull();

    const before = w.sandbox.requests.length;
    const second = await w.agent(['poll']);
    expect(second).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(w.sandbox.requests).toHaveLength(before);
  });

  it('exits 3 on a 401 and keeps the cursor where it was', async () => {
    const w = await registered();
    w.sandbox.addThread({ id: 'a1', text: BULLISH, timestamp: at(1) });
    w.sandbox.intercept((_req, res) => {
      res.writeHead(401, { 'content-type': 'application/json' }).end('{"message":"invalid api key"}');
      return true;
    });
    const result = await w.agent(['poll']);
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('agent register');
    expect(w.state().cursor).toBeNull();
  });

  it('retries a thread whose POST failed with a 5xx on the next run, without passing it with the cursor', async () => {
    const w = await registered();
    w.sandbox.addThread({ id: 'base', text: BULLISH, timestamp: at(30), locked: true });
    expect((await w.agent(['poll'])).code).toBe(0);
    w.sandbox.addThread({ id: 'old', text: BULLISH, project_id: 'c/bitcoin', timestamp: at(3) });
    w.sandbox.addThread({ id: 'new', text: BEARISH, project_id: 'c/bitcoin', timestamp: at(2) });
    const stopFailing = w.sandbox.intercept((req, res) => {
      if (req.method !== 'POST' || !req.url?.endsWith('/old')) return false;
      res.writeHead(503).end('<html><title>Service Unavailable</title></html>');
      return true;
    });
    const first = await w.agent(['poll', '--json']);
    expect(first.code).toBe(5);
    expect(JSON.parse(first.stdout).failed).toEqual([
      { threadId: 'old', error: expect.stringContaining('Service Unavailable') },
    ]);
    expect(w.state().cursor!.id).toBe('base');
    expect(w.sandbox.comments().map((c) => c.thread_id)).toEqual(['new']);

    stopFailing();
    const second = await w.agent(['poll']);
    expect(second.code).toBe(0);
    expect(
      w.sandbox
        .comments()
        .map((c) => c.thread_id)
        .sort(),
    ).toEqual(['new', 'old']);
    expect(w.state().cursor!.id).toBe('new');
    // 'new' was fetched again (the cursor stayed behind 'old') but the journal kept it from a second POST.
    expect(posts(w).filter((r) => r.path === '/comment/new')).toHaveLength(1);
  });

  it('never sends the key to another origin named by a redirect', async () => {
    const w = await registered();
    const other = await createWorld();
    try {
      w.sandbox.intercept((req, res) => {
        res.writeHead(307, { location: `${other.sandbox.url}${req.url}` }).end();
        return true;
      });
      const result = await w.agent(['poll']);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('redirect');
      expect(other.sandbox.requests).toHaveLength(0);
    } finally {
      await other.close();
    }
  });

  it('does not carry the key to a different AGENT_BASE_URL', async () => {
    const w = await registered();
    const other = await createWorld();
    try {
      const result = await w.agent(['poll'], { env: { AGENT_BASE_URL: other.sandbox.url } });
      expect(result.code).toBe(2);
      expect(other.sandbox.requests).toHaveLength(0);
    } finally {
      await other.close();
    }
  });
});

describe('agent poll output', () => {
  // stdout off a terminal is written straight to the descriptor (src/output/stdio.ts): a report larger
  // than a pipe's buffer must arrive whole, into a pipe as into a file (a crontab's `>> poll.log`).
  it('writes a report larger than a pipe buffer whole, into a pipe and into a file', async () => {
    const w = await registered();
    // A cursor first: a run without one reads only the latest page.
    w.sandbox.addThread({ id: 'old', timestamp: at(400), locked: true });
    expect((await w.agent(['poll'])).code).toBe(0);
    for (let i = 0; i < 600; i += 1)
      w.sandbox.addThread({
        id: `t${String(i).padStart(3, '0')}`,
        text: i % 2 ? BULLISH : BEARISH,
        timestamp: at(300 - i / 2),
      });
    const args = ['--config-dir', w.configDir, 'poll', '--dry-run', '--json'];
    const piped = await w.agent(args.slice(2));
    expect(piped.code).toBe(0);
    expect(piped.stdout.length).toBeGreaterThan(65_536);
    const report = JSON.parse(piped.stdout);
    expect(report.posted.length + report.skipped.length).toBe(600);

    const file = path.join(w.home, 'poll.log');
    const fd = fs.openSync(file, 'w');
    try {
      // Asynchronously: the sandbox answering it lives in this process.
      const child = spawn(process.execPath, [BIN, ...args], {
        env: { HOME: w.home, PATH: process.env.PATH ?? '/usr/bin:/bin' },
        stdio: ['ignore', fd, 'ignore'],
      });
      expect(await new Promise((resolve) => child.on('close', resolve))).toBe(0);
    } finally {
      fs.closeSync(fd);
    }
    expect(fs.readFileSync(file, 'utf8')).toBe(piped.stdout);
  });
});

describe('agent predict', () => {
  it('posts the analyzer decision on one thread', async () => {
    const w = await registered();
    w.sandbox.addThread({ id: 'one', text: BEARISH, project_id: 'c/ethereum', timestamp: at(1) });
    const result = await w.agent(['predict', 'one', '--json']);
    expect(result.code).toBe(0);
    const doc = JSON.parse(result.stdout);
    expect(doc).toMatchObject({ threadId: 'one', action: 'post', prediction: { thread_id: 'one' } });
    expect(doc.conviction).toBeLessThan(0);
    expect(w.sandbox.comments()).toHaveLength(1);
  });

  it("posts the user's own conviction and text, rounded to one decimal", async () => {
    const w = await registered();
    w.sandbox.addThread({ id: 'mine', text: BULLISH, project_id: 'c/bitcoin', timestamp: at(1) });
    const text = 'My own read: ETF demand outpaces supply today.';
    const result = await w.agent(['predict', 'mine', '--conviction', '1.26', '--text', text, '--json']);
    expect(result.code).toBe(0);
    expect(w.sandbox.comments()[0]).toMatchObject({ conviction: 1.3, text });
  });

  it.each([
    [['--conviction', 'abc']],
    [['--conviction', '0.04']],
    [['--conviction', '1', '--text', 'too short']],
    [['--text', 'a text without a conviction is not enough']],
  ])('refuses bad values %j with exit 2 before any request', async (args) => {
    const w = await registered();
    const before = w.sandbox.requests.length;
    const result = await w.agent(['predict', 'any', ...args]);
    expect(result.code).toBe(2);
    expect(w.sandbox.requests).toHaveLength(before);
  });

  it('exits 4 on a locked thread', async () => {
    const w = await registered();
    w.sandbox.addThread({ id: 'closed', text: BULLISH, timestamp: at(1), locked: true });
    const result = await w.agent(['predict', 'closed', '--conviction', '1.0']);
    expect(result.code).toBe(4);
    expect(result.stderr).toContain('locked');
  });

  it('exits 2 for an unknown thread, and keeps a path-shaped id in one segment', async () => {
    const w = await registered();
    const result = await w.agent(['predict', '../agent/me']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('no such thread');
    expect(w.sandbox.requests.at(-1)!.path).toBe('/thread/..%2Fagent%2Fme');
  });

  it('--dry-run prints the decision and posts nothing', async () => {
    const w = await registered();
    w.sandbox.addThread({ id: 'look', text: BULLISH, project_id: 'c/bitcoin', timestamp: at(1) });
    const result = await w.agent(['predict', 'look', '--dry-run', '--json']);
    expect(result.code).toBe(0);
    const doc = JSON.parse(result.stdout);
    expect(doc.action).toBe('post');
    expect(doc.prediction).toBeUndefined();
    expect(posts(w)).toHaveLength(0);
  });

  it('does not post twice on a thread poll already predicted', async () => {
    const w = await registered();
    w.sandbox.addThread({ id: 'twice', text: BULLISH, project_id: 'c/bitcoin', timestamp: at(1) });
    expect((await w.agent(['poll'])).code).toBe(0);
    const result = await w.agent(['predict', 'twice', '--conviction', '2', '--json']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ action: 'skip', reason: expect.stringContaining('already') });
    expect(w.sandbox.comments()).toHaveLength(1);
    expect(posts(w)).toHaveLength(1);
  });
});

describe('agent poll --limit', () => {
  const threadLists = (w: World) =>
    w.sandbox.requests.filter((r) => r.method === 'GET' && r.path.startsWith('/thread?'));

  it('refuses more than the sandbox serves (100) before sending anything', async () => {
    const w = await registered();
    const before = w.sandbox.requests.length;
    const result = await w.agent(['poll', '--limit', '1000']);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('agent: --limit must be a whole number from 1 to 100 (got "1000") (nothing was sent)\n');
    expect(w.sandbox.requests).toHaveLength(before);
  });

  it('accepts 100, which the sandbox serves', async () => {
    const w = await registered();
    w.sandbox.addThread({ id: 'l1', text: BULLISH, project_id: 'c/bitcoin', timestamp: at(1) });
    expect(await w.agent(['poll', '--limit', '100'])).toMatchObject({ code: 0, stderr: '' });
    expect(threadLists(w).at(-1)!.path).toContain('limit=100');
  });

  it('a service that refuses the limit is named as refusing the limit, with the fix', async () => {
    const w = await registered();
    w.sandbox.intercept((req, res) => {
      if (!req.url?.startsWith('/thread?') || Number(new URL(req.url, 'http://x').searchParams.get('limit')) <= 10)
        return false;
      res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":"limit must be at most 10"}');
      return true;
    });
    const result = await w.agent(['poll', '--limit', '20']);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      'agent: the service refused the limit 20 on the thread list (400: limit must be at most 10) (try a smaller --limit)\n',
    );
    expect(await w.agent(['poll', '--limit', '10'])).toMatchObject({ code: 0, stderr: '' });
  });
});

describe('agent poll and timestamps that are not ISO 8601', () => {
  it('names a thread whose timestamp is not a date-time, leaves it alone, and handles the rest', async () => {
    const w = await registered();
    const good = {
      id: 'good',
      pollen_id: 'p1',
      project_id: 'c/bitcoin',
      text: BULLISH,
      timestamp: at(2),
      locked: false,
      price_on_fetch: 1,
      citations: [],
    };
    w.sandbox.addThread({ id: good.id, text: good.text, project_id: good.project_id, timestamp: good.timestamp });
    // Date.parse reads "foo 1" as 2001-01-01, a time that would place it before any cursor.
    const undated = { ...good, id: 'undated', timestamp: 'foo 1' };
    w.sandbox.intercept((req, res) => {
      if (req.method !== 'GET' || !req.url?.startsWith('/thread?')) return false;
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify([good, undated]));
      return true;
    });
    const result = await w.agent(['poll']);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe(
      'agent: thread "undated" has the timestamp "foo 1", not an ISO 8601 date-time: it cannot be placed relative to the cursor, so it was ignored\n',
    );
    expect(posts(w).map((r) => r.path)).toEqual(['/comment/good']);
    expect(w.state().cursor).toEqual({ timestamp: good.timestamp, id: 'good' });
    expect(Object.keys(w.state().journal as object)).toEqual(['good']);
  });
});
