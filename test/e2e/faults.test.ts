import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BULLISH, minutesAgo, registeredWorlds, type World } from './harness.js';

const registered = registeredWorlds();

const at = minutesAgo;
const posts = (w: World) => w.sandbox.requests.filter((r) => r.method === 'POST' && r.path.startsWith('/comment/'));
const FAST_TIMEOUT = { AGENT_TEST_REQUEST_TIMEOUT_MS: '400' };

function holdLock(w: World): void {
  // A live process (this test runner) holds the lock, as a poll from cron would.
  fs.writeFileSync(
    path.join(w.configDir, 'lock'),
    JSON.stringify({ pid: process.pid, startedAt: new Date().toISOString() }),
    { mode: 0o600 },
  );
}

describe('one writer at a time (one-writer)', () => {
  it('a poll while another run holds the lock exits 0 at once, silently, and sends nothing', async () => {
    const w = await registered();
    w.sandbox.addThread({ id: 'x', text: BULLISH, timestamp: at(1) });
    holdLock(w);
    const before = w.sandbox.requests.length;
    expect(await w.agent(['poll'])).toMatchObject({ code: 0, stdout: '', stderr: '' });
    const verbose = await w.agent(['poll', '--verbose']);
    expect(verbose.code).toBe(0);
    expect(verbose.stderr).toContain(`pid ${process.pid}`);
    expect(w.sandbox.requests).toHaveLength(before);
  });

  it('a register --force while another run holds the lock says so, exits 5 and changes nothing', async () => {
    const w = await registered();
    const before = fs.readFileSync(path.join(w.configDir, 'state.json'), 'utf8');
    holdLock(w);
    const result = await w.register('other-agent', ['--force']);
    expect(result.code).toBe(5);
    expect(result.stderr).toContain('another agent run');
    expect(fs.readFileSync(path.join(w.configDir, 'state.json'), 'utf8')).toBe(before);
  });

  it('a poll --json while another run holds the lock prints the poll shape, with the stored cursor', async () => {
    const w = await registered();
    holdLock(w);
    const result = await w.agent(['poll', '--json']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ posted: [], skipped: [], failed: [], cursor: null });
  });

  it('a predict while another run holds the lock says so and exits 5', async () => {
    const w = await registered();
    w.sandbox.addThread({ id: 'x', text: BULLISH, timestamp: at(1) });
    holdLock(w);
    const result = await w.agent(['predict', 'x', '--conviction', '1.5']);
    expect(result.code).toBe(5);
    expect(result.stderr).toContain('another agent run');
    expect(posts(w)).toHaveLength(0);
  });

  it('a lock left by a dead process is taken over', async () => {
    const w = await registered();
    w.sandbox.addThread({ id: 'x', text: BULLISH, project_id: 'c/bitcoin', timestamp: at(1) });
    fs.writeFileSync(path.join(w.configDir, 'lock'), JSON.stringify({ pid: 2 ** 22 + 12345, startedAt: at(1) }), {
      mode: 0o600,
    });
    expect((await w.agent(['poll'])).code).toBe(0);
    expect(posts(w)).toHaveLength(1);
    expect(fs.existsSync(path.join(w.configDir, 'lock'))).toBe(false);
  });
});

describe('a POST that may have landed is never sent again (never-twice)', () => {
  it('every POST arrives after its "posting" mark is on disk, also in batches', async () => {
    const w = await registered();
    for (let i = 0; i < 20; i++)
      w.sandbox.addThread({
        id: `b${String(i).padStart(2, '0')}`,
        text: BULLISH,
        project_id: 'c/bitcoin',
        timestamp: at(20 - i),
      });
    const seen: Array<[string, string | undefined]> = [];
    w.sandbox.intercept((req) => {
      if (req.method === 'POST' && req.url?.startsWith('/comment/')) {
        const id = decodeURIComponent(req.url.slice('/comment/'.length));
        const onDisk = JSON.parse(fs.readFileSync(path.join(w.configDir, 'state.json'), 'utf8'));
        seen.push([id, onDisk.journal?.[id]?.status]);
      }
      return false;
    });
    expect((await w.agent(['poll'])).code).toBe(0);
    expect(seen).toHaveLength(20);
    expect(seen.filter(([, status]) => status !== 'posting')).toEqual([]);
    expect(
      Object.values(w.state().journal as Record<string, { status: string }>).every((e) => e.status === 'posted'),
    ).toBe(true);
  });

  it('a POST with no answer is marked unknown: neither the next poll nor predict posts on it', async () => {
    const w = await registered();
    w.sandbox.addThread({ id: 'hang', text: BULLISH, project_id: 'c/bitcoin', timestamp: at(1) });
    const release = w.sandbox.intercept((req) => req.method === 'POST'); // answered never: a stall
    const first = await w.agent(['poll', '--json'], { env: FAST_TIMEOUT });
    expect(first.code).toBe(5);
    expect(JSON.parse(first.stdout).failed).toEqual([
      { threadId: 'hang', error: expect.stringContaining('not posted again') },
    ]);
    expect(posts(w)).toHaveLength(1);
    release();

    expect((await w.agent(['poll'])).code).toBe(0);
    const manual = await w.agent(['predict', 'hang', '--conviction', '1.0', '--json']);
    expect(manual.code).toBe(0);
    expect(JSON.parse(manual.stdout)).toMatchObject({
      action: 'skip',
      reason: expect.stringContaining('may have landed'),
    });
    expect(posts(w)).toHaveLength(1);
  });

  it('a crash between "about to post" and "posted" is not posted again', async () => {
    const w = await registered();
    w.sandbox.addThread({ id: 'crash', text: BULLISH, project_id: 'c/bitcoin', timestamp: at(1) });
    const file = path.join(w.configDir, 'state.json');
    const state = w.state();
    // What a run killed right after its durable "posting" mark leaves behind.
    fs.writeFileSync(
      file,
      JSON.stringify({
        ...state,
        journal: { crash: { ts: w.sandbox.store.thread('crash')!.timestamp, status: 'posting' } },
      }),
      { mode: 0o600 },
    );
    const result = await w.agent(['poll', '--json']);
    expect(result.code).toBe(5);
    expect(JSON.parse(result.stdout).failed[0]).toMatchObject({
      threadId: 'crash',
      error: expect.stringContaining('interrupted'),
    });
    expect(posts(w)).toHaveLength(0);
    expect((await w.agent(['poll'])).code).toBe(0);
    expect(posts(w)).toHaveLength(0);
  });
});

describe('a redirect answering a POST', () => {
  // Only the POSTs are redirected: the service is otherwise fine, as behind a proxy that moved one route.
  const redirectPosts = (w: World, status: number) =>
    w.sandbox.intercept((req, res) => {
      if (req.method !== 'POST' || !req.url?.startsWith('/comment/')) return false;
      res.writeHead(status, { location: `http://127.0.0.1:9${req.url}` }).end();
      return true;
    });
  const journal = (w: World) => (w.state().journal ?? {}) as Record<string, { status: string }>;

  it.each([301, 302, 307, 308])(
    'a %i stops the run, leaves every thread due, and a later run posts them',
    async (status) => {
      const w = await registered();
      for (const id of ['r1', 'r2', 'r3'])
        w.sandbox.addThread({
          id,
          text: BULLISH,
          project_id: 'c/bitcoin',
          timestamp: at(id === 'r1' ? 3 : id === 'r2' ? 2 : 1),
        });
      const stop = redirectPosts(w, status);
      const first = await w.agent(['poll']);
      expect(first.code).toBe(1);
      expect(first.stderr).toContain(`answered ${status}, a redirect`);
      expect(Object.values(journal(w)).map((e) => e.status)).not.toContain('skipped');
      expect(w.state().cursor).toBeNull();
      stop();

      expect((await w.agent(['poll'])).code).toBe(0);
      expect(
        w.sandbox
          .comments()
          .map((c) => c.thread_id)
          .sort(),
      ).toEqual(['r1', 'r2', 'r3']);
    },
  );

  it('a 303 See Other means the POST was processed: neither poll nor predict posts on it again', async () => {
    const w = await registered();
    w.sandbox.addThread({ id: 'seen', text: BULLISH, project_id: 'c/bitcoin', timestamp: at(1) });
    const stop = redirectPosts(w, 303);
    const first = await w.agent(['poll', '--json']);
    expect(first.code).toBe(5);
    expect(JSON.parse(first.stdout).failed).toEqual([
      { threadId: 'seen', error: expect.stringContaining('not posted again') },
    ]);
    expect(journal(w).seen?.status).toBe('unknown');
    stop();

    expect((await w.agent(['poll'])).code).toBe(0);
    const manual = await w.agent(['predict', 'seen', '--conviction', '1.0', '--json']);
    expect(JSON.parse(manual.stdout)).toMatchObject({
      action: 'skip',
      reason: expect.stringContaining('may have landed'),
    });
    expect(posts(w)).toHaveLength(1);
  });

  it('predict met by a 307 fails with exit 1 and leaves the thread free for a later predict', async () => {
    const w = await registered();
    w.sandbox.addThread({ id: 'moved', text: BULLISH, project_id: 'c/bitcoin', timestamp: at(1) });
    const stop = redirectPosts(w, 307);
    const first = await w.agent(['predict', 'moved', '--conviction', '1.0']);
    expect(first.code).toBe(1);
    expect(first.stderr).toContain('answered 307, a redirect');
    expect(journal(w).moved).toBeUndefined();
    stop();
    expect((await w.agent(['predict', 'moved', '--conviction', '1.0'])).code).toBe(0);
    expect(w.sandbox.comments().map((c) => c.thread_id)).toEqual(['moved']);
  });

  it('predict met by a 303 marks the thread: a later predict or poll does not post on it', async () => {
    const w = await registered();
    w.sandbox.addThread({ id: 'seen', text: BULLISH, project_id: 'c/bitcoin', timestamp: at(1) });
    const stop = redirectPosts(w, 303);
    expect((await w.agent(['predict', 'seen', '--conviction', '1.0'])).code).toBe(1);
    expect(journal(w).seen?.status).toBe('unknown');
    stop();
    const again = await w.agent(['predict', 'seen', '--conviction', '1.0', '--json']);
    expect(JSON.parse(again.stdout)).toMatchObject({
      action: 'skip',
      reason: expect.stringContaining('may have landed'),
    });
    expect((await w.agent(['poll'])).code).toBe(0);
    expect(posts(w)).toHaveLength(1);
  });
});

describe('a remembered rate limit (polite)', () => {
  it('predict inside a stored pause sends nothing and exits 5', async () => {
    const w = await registered();
    const file = path.join(w.configDir, 'state.json');
    fs.writeFileSync(
      file,
      JSON.stringify({ ...w.state(), rateLimitedUntil: new Date(Date.now() + 30 * 60_000).toISOString() }),
      { mode: 0o600 },
    );
    const before = w.sandbox.requests.length;
    const result = await w.agent(['predict', 'any', '--conviction', '1']);
    expect(result.code).toBe(5);
    expect(result.stderr).toContain('rate limited');
    expect(w.sandbox.requests).toHaveLength(before);
  });

  it.each([
    ['predict (on its GET)', ['predict', 'p', '--conviction', '1']],
    ['me', ['me']],
    ['update', ['update', '--bio', 'new bio']],
  ])('a 429 met by %s is remembered for the next poll', async (_what, args) => {
    const w = await registered();
    w.sandbox.addThread({ id: 'p', text: BULLISH, project_id: 'c/bitcoin', timestamp: at(1) });
    w.sandbox.intercept((_req, res) => {
      res.writeHead(429, { 'retry-after': '600' }).end();
      return true;
    });
    expect((await w.agent(args)).code).toBe(5);
    expect(Date.parse(String(w.state().rateLimitedUntil))).toBeGreaterThan(Date.now() + 5 * 60_000);
    const before = w.sandbox.requests.length;
    expect((await w.agent(['poll'])).code).toBe(0);
    expect(w.sandbox.requests).toHaveLength(before);
  });

  it('a 429 met by predict is remembered for the next poll', async () => {
    const w = await registered();
    w.sandbox.addThread({ id: 'p', text: BULLISH, project_id: 'c/bitcoin', timestamp: at(1) });
    w.sandbox.intercept((req, res) => {
      if (req.method !== 'POST') return false;
      res.writeHead(429, { 'retry-after': '600' }).end();
      return true;
    });
    expect((await w.agent(['predict', 'p', '--conviction', '1'])).code).toBe(5);
    expect(Date.parse(String(w.state().rateLimitedUntil))).toBeGreaterThan(Date.now() + 5 * 60_000);
    const before = w.sandbox.requests.length;
    expect((await w.agent(['poll'])).code).toBe(0);
    expect(w.sandbox.requests).toHaveLength(before);
  });
});

describe('hostile threads (hostile-input)', () => {
  it('a thread whose id cannot be one path segment is skipped with a reason, the others posted', async () => {
    const w = await registered();
    w.sandbox.addThread({ id: '..', text: BULLISH, project_id: 'c/bitcoin', timestamp: at(2) });
    w.sandbox.addThread({ id: 'fine', text: BULLISH, project_id: 'c/bitcoin', timestamp: at(1) });
    const result = await w.agent(['poll', '--json']);
    expect(result.code).toBe(0);
    const doc = JSON.parse(result.stdout);
    expect(doc.skipped).toEqual([
      { threadId: '..', skipKind: 'malformed', reason: expect.stringContaining('path segment') },
    ]);
    expect(doc.posted.map((p: { threadId: string }) => p.threadId)).toEqual(['fine']);
  });

  it('terminal escapes in thread text never reach the terminal raw', async () => {
    const w = await registered();
    w.sandbox.addThread({
      id: 'esc',
      text: `\u001b]0;owned\u0007\u001b[2J${BULLISH}\u009b31m`,
      project_id: 'c/bitcoin',
      timestamp: at(1),
    });
    const result = await w.agent(['poll', '--verbose', '--json']);
    expect(result.code).toBe(0);
    expect(result.stdout + result.stderr).not.toMatch(/[\u001b\u0007\u009b]/);
  });

  it('a corrupt state file is an error that names it, and is left as it is (state-intact)', async () => {
    const w = await registered();
    const file = path.join(w.configDir, 'state.json');
    fs.writeFileSync(file, '{"apiKey": "hive_', { mode: 0o600 });
    const result = await w.agent(['poll']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(file);
    expect(fs.readFileSync(file, 'utf8')).toBe('{"apiKey": "hive_');
  });

  it('a state file others can read is refused before any request, naming the chmod (key-at-rest)', async () => {
    const w = await registered();
    const file = path.join(w.configDir, 'state.json');
    fs.chmodSync(file, 0o644);
    const before = w.sandbox.requests.length;
    const result = await w.agent(['me']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`chmod 600 '${file}'`);
    expect(w.sandbox.requests).toHaveLength(before);
  });
});

describe('a config dir that belongs to another user', () => {
  // Only root can hand a directory to another user; CI runs as root. 65534 is "nobody" on Linux.
  const asRoot = process.getuid?.() === 0;
  const OTHER = 65534;

  function giveAway(target: string): void {
    fs.chownSync(target, OTHER, OTHER);
    for (const name of fs.readdirSync(target)) fs.chownSync(path.join(target, name), OTHER, OTHER);
  }

  it.skipIf(!asRoot).each([
    ['poll', ['poll']],
    ['predict', ['predict', 'x', '--conviction', '1']],
    ['me', ['me']],
    ['config set', ['config', 'set', 'analyzer', 'builtin']],
  ])(
    '%s as root on it is refused before any request, naming the owner and the chown; nothing in it changes owner',
    async (_what, args) => {
      const w = await registered();
      w.sandbox.addThread({ id: 'x', text: BULLISH, project_id: 'c/bitcoin', timestamp: at(1) });
      giveAway(w.configDir);
      const file = path.join(w.configDir, 'state.json');
      const before = fs.readFileSync(file, 'utf8');
      const requests = w.sandbox.requests.length;
      // Even a lock made and removed again would show here.
      const dirChanged = fs.statSync(w.configDir).mtimeMs;
      const result = await w.agent(args);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(
        new RegExp(`belongs to (\\w+ \\()?uid ${OTHER}\\)?, but this runs as root \\(uid 0\\)`),
      );
      expect(result.stderr).toContain(`sudo chown -R root '${w.configDir}'`);
      expect(w.sandbox.requests).toHaveLength(requests);
      expect(fs.readFileSync(file, 'utf8')).toBe(before);
      for (const name of fs.readdirSync(w.configDir)) expect(fs.statSync(path.join(w.configDir, name)).uid).toBe(OTHER);
      expect(fs.statSync(w.configDir).mtimeMs).toBe(dirChanged);
    },
  );

  it.skipIf(!asRoot)('register as root into it is refused before the request', async () => {
    const w = await registered();
    fs.rmSync(path.join(w.configDir, 'state.json'));
    giveAway(w.configDir);
    const requests = w.sandbox.requests.length;
    const result = await w.register('second-agent');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('belongs to');
    expect(w.sandbox.requests).toHaveLength(requests);
    expect(fs.readdirSync(w.configDir)).toEqual([]);
  });
});
