import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { waitUntilGone } from '../analysis/command/support.js';
import { receiving } from '../support/sent-bodies.js';
import { BULLISH, minutesAgo, registeredWorlds, type World } from './harness.js';

// Alerts as cron meets them (docs/alerts.md): the built command, a bare environment, the sandbox on
// loopback, an alert command (a node script that keeps its stdin and environment) and a loopback webhook.

const HOUR = 3_600_000;
/** Nothing in it reads bullish or bearish: the built-in analyzer skips it. */
const NOTHING = 'The project team published the notes of its monthly community call today.';

const world = registeredWorlds();

interface Received {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A loopback HTTP server that keeps every request; `answer` decides what it does with each. */
async function hookServer(answer: (res: http.ServerResponse) => void = (res) => res.writeHead(200).end('ok')) {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      answer(res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  receiving(() => received.map((r) => r.body));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/T0K3N`, received };
}

const servers: http.Server[] = [];
/** Processes a test's alert command may have left: killed after it, whatever the test found. */
const strays: number[] = [];
afterEach(async () => {
  for (const pid of strays.splice(0)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone, as it should be
    }
  }
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** The alert command: a node script (by absolute path) that appends its stdin and environment to a file. */
function alertCommand(w: World): { line: string; seen: () => Array<{ stdin: string; env: Record<string, string> }> } {
  const out = path.join(w.home, 'alerts-seen.jsonl');
  const script = path.join(w.home, 'alert.mjs');
  fs.writeFileSync(
    script,
    `import fs from 'node:fs';
let stdin = '';
process.stdin.setEncoding('utf8').on('data', (c) => (stdin += c)).on('end', () => {
  fs.appendFileSync(${JSON.stringify(out)}, JSON.stringify({ stdin, env: process.env }) + '\\n');
});
`,
    { mode: 0o600 },
  );
  const seen = () =>
    fs.existsSync(out)
      ? fs
          .readFileSync(out, 'utf8')
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line))
      : [];
  return { line: `${process.execPath} ${script}`, seen };
}

async function configure(w: World, key: string, value: string): Promise<void> {
  const set = await w.agent(['config', 'set', key, value]);
  expect(set.code, set.stderr).toBe(0);
}

/** A poll the service answers with 401 throughout (a rejected key: failing at once). */
async function pollRejected(w: World) {
  const stop = w.sandbox.intercept((_req, res) => {
    res.writeHead(401).end('{}');
    return true;
  });
  try {
    return await w.agent(['poll']);
  } finally {
    stop();
  }
}

function historyLines(w: World): Array<Record<string, unknown>> {
  return fs
    .readFileSync(path.join(w.configDir, 'history.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
}

/** A poll two hours on: long enough after a failing for its recovered. */
const LATER = { env: { AGENT_TEST_CLOCK_AHEAD_MS: String(2 * HOUR) } };

describe('alerts', () => {
  it('failing once over five failing runs, then recovered once, through the command and the webhook; never the key', async () => {
    const w = await world();
    const key = w.state().apiKey;
    const command = alertCommand(w);
    const hook = await hookServer();
    await configure(w, 'alert.command', command.line);
    await configure(w, 'alert.webhook', hook.url);
    expect((await w.agent(['poll'])).code).toBe(0);

    // The service answers 503, and echoes the key in its answer: the error that ends each run holds it.
    const stop = w.sandbox.intercept((req, res) => {
      res
        .writeHead(503, { 'content-type': 'application/json' })
        .end(JSON.stringify({ message: `overloaded for ${String(req.headers['x-api-key'])}` }));
      return true;
    });
    const fast = { env: { AGENT_TEST_FAST_SLEEP: '1' } };
    for (let run = 1; run <= 5; run += 1) {
      const failed = await w.agent(['poll'], fast);
      expect(failed.code, failed.stderr).toBe(5);
      // The alert is sent when the third run in a row fails, and only then.
      expect(command.seen()).toHaveLength(run >= 3 ? 1 : 0);
      expect(hook.received).toHaveLength(run >= 3 ? 1 : 0);
    }
    stop();
    w.sandbox.addThread({ id: 'up', text: BULLISH, project_id: 'c/bitcoin', timestamp: minutesAgo(1) });
    const good = await w.agent(['poll']);
    expect(good.code, good.stderr).toBe(0);
    // Recovered only once no poll has failed for 30 minutes, an hour after the failing: not yet.
    expect(command.seen()).toHaveLength(1);
    expect((await w.agent(['poll'], LATER)).code).toBe(0);
    expect((await w.agent(['poll'], LATER)).code).toBe(0);

    const events = command.seen().map(({ stdin }) => JSON.parse(stdin));
    expect(events.map((event) => event.kind)).toEqual(['failing', 'recovered']);
    const runs = historyLines(w).filter((r) => r.kind === 'run');
    const firstFailed = runs[1]?.ts;
    const [failing, recovered] = events;
    expect(failing).toEqual({
      kind: 'failing',
      agent: 'e2e-agent',
      configDir: w.configDir,
      since: firstFailed,
      detail: expect.stringMatching(/^3 polls in a row failed, the last with exit 5: .*503/),
      hint: `run agent --config-dir ${w.configDir} doctor`,
      text: expect.stringMatching(/^agent e2e-agent: polls failing since /),
    });
    expect(recovered).toMatchObject({ kind: 'recovered', agent: 'e2e-agent', since: firstFailed, hint: null });
    // The webhook got the same objects, one POST each, as JSON, without the service's key header.
    expect(hook.received.map((r) => JSON.parse(r.body))).toEqual(events);
    for (const request of hook.received) {
      expect(request.method).toBe('POST');
      expect(request.headers['content-type']).toBe('application/json');
      expect(request.headers['x-api-key']).toBeUndefined();
      expect(JSON.stringify(request.headers)).not.toContain(key);
      expect(request.body).not.toContain(key);
    }
    // The key reached the event only masked; the command saw no variable holding it.
    expect(failing.detail).toContain(`hive_\u2026${key.slice(-4)}`);
    for (const { stdin, env } of command.seen()) {
      expect(stdin).not.toContain(key);
      expect(Object.values(env).some((value) => value.includes(key))).toBe(false);
    }
    const history = fs.readFileSync(path.join(w.configDir, 'history.jsonl'), 'utf8');
    expect(history).not.toContain(key);
    const sent = historyLines(w).filter((r) => r.kind === 'alert');
    expect(sent.map((r) => (r.alert as { event: string }).event)).toEqual(['failing', 'recovered']);
    expect(fs.statSync(path.join(w.configDir, 'alerts.json')).mode & 0o777).toBe(0o600);
    // The history's readers take the new lines in their stride.
    const listed = await w.agent(['history', '--json']);
    expect(listed.code).toBe(0);
    const entries = JSON.parse(listed.stdout).entries as Array<Record<string, unknown>>;
    expect(entries.filter((e) => e.kind === 'alert').map((e) => (e.alert as { event: string }).event)).toEqual([
      'recovered',
      'failing',
    ]);
    expect((await w.agent(['history'])).stdout).toMatch(/alert {4}failing alert: command exit 0, webhook HTTP 200/);
    const stats = await w.agent(['stats', '--json']);
    expect(stats.code).toBe(0);
    // (The failed runs' fast-forwarded clocks may date them ahead of this one's "now": at least the good ones.)
    expect(JSON.parse(stats.stdout)).toMatchObject({ posts: 1, runs: { poll: expect.any(Number) } });
    expect(JSON.parse(stats.stdout).runs.poll).toBeGreaterThanOrEqual(3);
  });

  it('failing at once when the state cannot be trusted (that run is not in the history), once; recovered after', async () => {
    const w = await world();
    const command = alertCommand(w);
    await configure(w, 'alert.command', command.line);
    const file = path.join(w.configDir, 'state.json');
    const state = fs.readFileSync(file, 'utf8');
    fs.writeFileSync(file, '{"apiKey": ', { mode: 0o600 });
    expect((await w.agent(['poll'])).code).toBe(1);
    expect((await w.agent(['poll'])).code).toBe(1);
    fs.writeFileSync(file, state, { mode: 0o600 });
    expect((await w.agent(['poll'], LATER)).code).toBe(0);
    const events = command.seen().map(({ stdin }) => JSON.parse(stdin));
    expect(events.map((event) => event.kind)).toEqual(['failing', 'recovered']);
    expect(events[0]).toMatchObject({ agent: null, detail: expect.stringContaining('state.json') });
  });

  it.each([
    ['a setting in config.json is not valid', 'config.json is not valid'],
    ['the run lock is a directory', 'lock is not a regular file'],
  ])('failing at once when %s (every poll exits 1), once; recovered after', async (what, said) => {
    const w = await world();
    const command = alertCommand(w);
    await configure(w, 'alert.command', command.line);
    const config = path.join(w.configDir, 'config.json');
    const lock = path.join(w.configDir, 'lock');
    const good = fs.readFileSync(config, 'utf8');
    if (what.startsWith('a setting'))
      fs.writeFileSync(config, JSON.stringify({ ...JSON.parse(good), 'analyzer.timeout': 'soon' }), { mode: 0o600 });
    else fs.mkdirSync(lock);
    // A thread to analyze: the analyzer's settings are read only then.
    w.sandbox.addThread({ id: 'up', text: BULLISH, project_id: 'c/bitcoin', timestamp: minutesAgo(1) });
    for (let run = 1; run <= 2; run += 1) {
      const failed = await w.agent(['poll']);
      expect(failed.code, failed.stderr).toBe(1);
      expect(failed.stderr).not.toContain('alerts not sent');
    }
    fs.writeFileSync(config, good, { mode: 0o600 });
    fs.rmSync(lock, { recursive: true, force: true });
    const fixed = await w.agent(['poll'], LATER);
    expect(fixed.code, fixed.stderr).toBe(0);
    const events = command.seen().map(({ stdin }) => JSON.parse(stdin));
    expect(events.map((event) => event.kind)).toEqual(['failing', 'recovered']);
    expect(events[0]).toMatchObject({ agent: 'e2e-agent', detail: expect.stringContaining(said) });
  });

  it('failing at once when poll --watch cannot start (its state cannot be trusted), once', async () => {
    const w = await world();
    const command = alertCommand(w);
    await configure(w, 'alert.command', command.line);
    fs.writeFileSync(path.join(w.configDir, 'state.json'), '{"apiKey": ', { mode: 0o600 });
    for (let start = 1; start <= 2; start += 1) {
      const watcher = await w.agent(['poll', '--watch', '--interval', '300']);
      expect(watcher.code, watcher.stderr).toBe(1);
      expect(watcher.stderr).toContain('state.json is corrupt');
    }
    const events = command.seen().map(({ stdin }) => JSON.parse(stdin));
    expect(events.map((event) => event.kind)).toEqual(['failing']);
    expect(events[0]).toMatchObject({ agent: null, detail: expect.stringContaining('state.json') });
  });

  it('quiet once after a day of threads all skipped (the test clock a day ahead), again only after a post', async () => {
    const w = await world();
    const command = alertCommand(w);
    await configure(w, 'alert.command', command.line);
    const pollAt = async (hours: number, thread: { id: string; text: string }) => {
      w.sandbox.addThread({ ...thread, project_id: 'c/bitcoin', timestamp: minutesAgo(0.1) });
      const polled = await w.agent(['poll'], { env: { AGENT_TEST_CLOCK_AHEAD_MS: String(hours * HOUR) } });
      expect(polled.code, polled.stderr).toBe(0);
      return command.seen().map(({ stdin }) => JSON.parse(stdin).kind);
    };
    expect(await pollAt(0, { id: 'p1', text: BULLISH })).toEqual([]);
    expect(w.sandbox.comments()).toHaveLength(1);
    expect(await pollAt(2, { id: 's1', text: NOTHING })).toEqual([]);
    expect(await pollAt(12, { id: 's2', text: NOTHING })).toEqual([]);
    expect(await pollAt(25, { id: 's3', text: NOTHING })).toEqual(['quiet']);
    expect(await pollAt(26, { id: 's4', text: NOTHING })).toEqual(['quiet']);
    const [quiet] = command.seen().map(({ stdin }) => JSON.parse(stdin));
    expect(quiet.detail).toMatch(/^3 new thread\(s\) in the last 24 h, every one skipped: no evidence/);
    // A post re-arms it: the next day of skips is told again.
    expect(await pollAt(27, { id: 'p2', text: BULLISH })).toEqual(['quiet']);
    expect(await pollAt(52, { id: 's5', text: NOTHING })).toEqual(['quiet', 'quiet']);
  });

  it.each(['hangs', 'redirects'] as const)(
    'a webhook that %s costs a poll at most its 5 s and nothing else',
    async (behaviour) => {
      const w = await world();
      const elsewhere = await hookServer();
      const hook = await hookServer((res) => {
        if (behaviour === 'redirects') res.writeHead(302, { location: elsewhere.url }).end();
        // else: never answers
      });
      await configure(w, 'alert.webhook', hook.url);
      // A rejected key: failing at once, sent to the webhook.
      const stop = w.sandbox.intercept((_req, res) => {
        res.writeHead(401, { 'content-type': 'application/json' }).end('{"message": "invalid key"}');
        return true;
      });
      expect((await w.agent(['poll'])).code).toBe(3);
      stop();
      // A good run that posts, and tells of its recovery to the same webhook.
      w.sandbox.addThread({ id: 'up', text: BULLISH, project_id: 'c/bitcoin', timestamp: minutesAgo(1) });
      const good = await w.agent(['poll'], LATER);
      expect(good.code, good.stderr).toBe(0);
      expect(w.sandbox.comments().map((c) => c.thread_id)).toEqual(['up']);
      expect(hook.received.map((r) => JSON.parse(r.body).kind)).toEqual(['failing', 'recovered']);
      expect(elsewhere.received).toEqual([]);
      const answers = historyLines(w)
        .filter((r) => r.kind === 'alert')
        .map((r) => (r.alert as { routes: Array<{ answer: string }> }).routes[0]?.answer);
      expect(answers).toEqual(
        behaviour === 'hangs'
          ? [expect.stringContaining('within 5 s'), expect.stringContaining('within 5 s')]
          : [expect.stringMatching(/^HTTP 302: a redirect/), expect.stringMatching(/^HTTP 302: a redirect/)],
      );
      const doctor = await w.agent(['doctor']);
      expect(doctor.stdout).toMatch(
        /warn +alerts +webhook http:\/\/127\.0\.0\.1:\d+\/\u2026; the last alert \(recovered\)/,
      );
      expect(doctor.stdout).not.toContain('T0K3N');
    },
  );

  it('an alert command that never exits, nor its child, is stopped with its process group within 5 s', async () => {
    const w = await world();
    const script = path.join(w.home, 'stuck.mjs');
    const pidFile = path.join(w.home, 'child.pid');
    fs.writeFileSync(
      script,
      `import { spawn } from 'node:child_process';
import fs from 'node:fs';
process.on('SIGTERM', () => {});
const child = spawn(process.execPath, ['-e', 'process.on("SIGTERM", () => {}); setInterval(() => {}, 1000)'], { stdio: 'ignore' });
fs.writeFileSync(${JSON.stringify(pidFile)}, String(child.pid));
setInterval(() => {}, 1000);
`,
      { mode: 0o600 },
    );
    await configure(w, 'alert.command', `${process.execPath} ${script}`);
    const polled = await pollRejected(w);
    expect(polled.code).toBe(3);
    expect(polled.stderr).toContain('agent: the failing alert by command failed: no exit within 5 s');
    const child = Number(fs.readFileSync(pidFile, 'utf8'));
    // Gone, or a zombie no one has reaped yet (a container's pid 1 may never): either way, not running.
    const state = fs.existsSync(`/proc/${child}/stat`)
      ? fs.readFileSync(`/proc/${child}/stat`, 'utf8').split(') ')[1]?.[0]
      : 'gone';
    expect(['gone', 'Z', 'X']).toContain(state);
    const [alert] = historyLines(w).filter((r) => r.kind === 'alert');
    expect(alert?.reason).toBe('command: no exit within 5 s: stopped with its process group');
  });

  // What docs/alerts.md promises of a command's strays: its process group, and on Linux whatever left the
  // group but kept its environment. One that leaves the group and clears its environment is out of reach.
  it.each([
    ['a background child in its process group', ''],
    ['a background child that left the group (setsid) but kept its environment', 'setsid '],
  ])('an alert command that exits leaves nothing running: %s', async (_name, prefix) => {
    const w = await world();
    const script = path.join(w.home, 'starts-daemon.sh');
    const pidFile = path.join(w.home, 'daemon.pid');
    // The daemon writes its pid once it has left the group (if it does), and the script waits for it.
    fs.writeFileSync(
      script,
      [
        `${prefix}sh -c 'echo $$ > "$0"; exec sleep 300' '${pidFile}' </dev/null >/dev/null 2>&1 &`,
        `while [ ! -s '${pidFile}' ]; do sleep 0.05; done`,
        'cat >/dev/null',
        '',
      ].join('\n'),
      { mode: 0o600 },
    );
    await configure(w, 'alert.command', `/bin/sh ${script}`);
    const polled = await pollRejected(w);
    expect(polled.code).toBe(3);
    const [alert] = historyLines(w).filter((r) => r.kind === 'alert');
    expect(alert?.alert).toEqual({ event: 'failing', routes: [{ route: 'command', ok: true, answer: 'exit 0' }] });
    const daemon = Number(fs.readFileSync(pidFile, 'utf8'));
    strays.push(daemon);
    expect(await waitUntilGone(daemon)).toBe(true);
  });

  it('paused once when the service asks for a pause over 10 minutes, not again inside it', async () => {
    const w = await world();
    const command = alertCommand(w);
    await configure(w, 'alert.command', command.line);
    const stop = w.sandbox.intercept((_req, res) => {
      res.writeHead(429, { 'retry-after': '1800' }).end('{}');
      return true;
    });
    expect((await w.agent(['poll'])).code).toBe(5);
    stop();
    // Inside the stored pause: nothing is sent to the service, and no second alert.
    expect((await w.agent(['poll'])).code).toBe(0);
    const events = command.seen().map(({ stdin }) => JSON.parse(stdin));
    expect(events.map((event) => event.kind)).toEqual(['paused']);
    expect(events[0].detail).toMatch(/^nothing is sent to it until \S+ \((29|30) min\)$/);
  });

  it('the heartbeat: one GET after each good poll, none after a failed one', async () => {
    const w = await world();
    const beat = await hookServer();
    await configure(w, 'alert.heartbeat', beat.url);
    expect((await w.agent(['poll'])).code).toBe(0);
    const stop = w.sandbox.intercept((_req, res) => {
      res.writeHead(401).end('{}');
      return true;
    });
    expect((await w.agent(['poll'])).code).toBe(3);
    stop();
    expect((await w.agent(['poll'])).code).toBe(0);
    expect(beat.received.map((r) => `${r.method} ${r.url}`)).toEqual(['GET /hooks/T0K3N', 'GET /hooks/T0K3N']);
    expect(beat.received[0]?.headers['x-api-key']).toBeUndefined();
  });

  it('a heartbeat that failed once and answers again is no longer a warning in doctor', async () => {
    const w = await world();
    let pings = 0;
    const beat = await hookServer((res) => {
      pings += 1;
      res.writeHead(pings === 1 ? 500 : 200).end();
    });
    await configure(w, 'alert.heartbeat', beat.url);
    const first = await w.agent(['poll']);
    expect(first.stderr).toContain('agent: the heartbeat failed: HTTP 500\n');
    expect(await w.agent(['doctor'])).toMatchObject({ stdout: expect.stringMatching(/^warn +alerts .*HTTP 500/m) });
    const second = await w.agent(['poll']);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).toBe('');
    expect(beat.received).toHaveLength(2);
    const doctor = await w.agent(['doctor']);
    expect(doctor.stdout).toMatch(/^ok +alerts +heartbeat http:\/\/127\.0\.0\.1:\d+\/\u2026; none sent yet$/m);
  });

  it('an alert memory that is not a file: each poll says alerts are not sent, and doctor fails the alerts', async () => {
    const w = await world();
    const hook = await hookServer();
    await configure(w, 'alert.webhook', hook.url);
    fs.mkdirSync(path.join(w.configDir, 'alerts.json'));
    const polled = await pollRejected(w);
    expect(polled.code).toBe(3);
    expect(polled.stderr).toMatch(/^agent: alerts not sent: the alert memory .*alerts\.json is not a regular file/m);
    expect(hook.received).toEqual([]);
    const doctor = await w.agent(['doctor']);
    expect(doctor.code).toBe(1);
    expect(doctor.stdout).toMatch(
      /^FAIL +alerts +webhook http:\/\/127\.0\.0\.1:\d+\/\u2026: the alert memory .*alerts\.json is not a regular file \(a directory\)/m,
    );
  });
});

describe('alert settings and agent alert test', () => {
  it('config: a webhook URL is checked, stored whole, and shown only as scheme and host', async () => {
    const w = await world();
    for (const bad of [
      'http://example.com/hooks/T0K3N',
      'ftp://127.0.0.1/x',
      'https://user:pw@example.com/x',
      'T0K3N',
    ]) {
      const refused = await w.agent(['config', 'set', 'alert.webhook', bad]);
      expect(refused.code).toBe(2);
      expect(refused.stderr).not.toContain('T0K3N');
    }
    const relative = await w.agent(['config', 'set', 'alert.command', 'node /tmp/alert.mjs']);
    expect(relative.code).toBe(2);
    expect(relative.stderr).toContain('alert.command must name its program by absolute path');
    await configure(w, 'alert.webhook', 'https://hooks.example.com/services/T0K3N');
    const outputs = await Promise.all([
      w.agent(['config', 'get']),
      w.agent(['config', 'get', '--json']),
      w.agent(['config', 'get', 'alert.webhook']),
      w.agent(['config', 'get', 'alert.webhook', '--json']),
      w.agent(['doctor']),
    ]);
    for (const { stdout, stderr } of outputs) expect(stdout + stderr).not.toContain('T0K3N');
    expect(outputs[2]?.stdout).toBe('https://hooks.example.com/\u2026\n');
    const stored = JSON.parse(fs.readFileSync(path.join(w.configDir, 'config.json'), 'utf8'));
    expect(stored['alert.webhook']).toBe('https://hooks.example.com/services/T0K3N');
  });

  it('alert test: what each route answered, exit 1 when one failed, 2 when none is set', async () => {
    const w = await world();
    const none = await w.agent(['alert', 'test']);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('no alert route is set');
    const command = alertCommand(w);
    const hook = await hookServer();
    await configure(w, 'alert.command', command.line);
    await configure(w, 'alert.webhook', hook.url);
    const tested = await w.agent(['alert', 'test', '--json']);
    expect(tested.code, tested.stderr).toBe(0);
    expect(JSON.parse(tested.stdout)).toEqual({
      event: 'test',
      routes: [
        { route: 'command', ok: true, answer: 'exit 0', target: command.line },
        {
          route: 'webhook',
          ok: true,
          answer: 'HTTP 200',
          target: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/\u2026$/),
        },
      ],
    });
    expect(JSON.parse(hook.received[0]?.body ?? '{}')).toMatchObject({ kind: 'test', agent: 'e2e-agent' });
    expect(command.seen()).toHaveLength(1);
    const broken = await hookServer((res) => res.writeHead(500).end());
    await configure(w, 'alert.webhook', broken.url);
    const failed = await w.agent(['alert', 'test']);
    expect(failed.code).toBe(1);
    expect(failed.stdout).toMatch(
      /^ok {4}command {2}exit 0 .*\nFAIL {2}webhook {2}HTTP 500 {2}\(http:\/\/127\.0\.0\.1:\d+\/\u2026\)\n$/,
    );
  });
});
