import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DOCTOR_CHECKS } from '../../../src/commands/doctor-checks.js';
import { runDoctor } from '../../../src/commands/doctor/run.js';
import type { RunProgram } from '../../../src/context.js';
import { cronLine, markerLine } from '../../../src/schedule/cron.js';
import { onlineContext, registerWith } from '../../support/in-process.js';
import { sandboxPerTest } from '../../support/sandbox-per-test.js';

// `agent doctor` in-process: a sandbox for the service, a process table, a crontab and a systemctl of the
// test's own (ctx.proc, ctx.runProgram). test/e2e/doctor*.test.ts run the same checks on the binary.

const world = sandboxPerTest('agent-doctor-');

type Check = { name: string; status: 'ok' | 'warn' | 'fail'; detail: string; fix?: string };

interface Machine {
  /** The crontab's text; none: "no crontab for". */
  crontab?: string;
  /** Process names in the process table besides init. */
  processes?: string[];
  /** No crontab program at all. */
  noCrontab?: boolean;
}

async function doctor(configDir: string, machine: Machine = {}, { json = true, columns = 0 } = {}) {
  const proc = path.join(world.dir, 'proc');
  fs.rmSync(proc, { recursive: true, force: true });
  for (const [i, name] of ['init', ...(machine.processes ?? [])].entries()) {
    fs.mkdirSync(path.join(proc, String(i + 1)), { recursive: true });
    fs.writeFileSync(path.join(proc, String(i + 1), 'comm'), `${name}\n`);
  }
  const runProgram: RunProgram = async (file, args) => {
    if (machine.noCrontab && file === 'crontab') return { status: null, stdout: '', stderr: '', missing: true };
    if (file === 'crontab' && machine.crontab !== undefined)
      return { status: 0, stdout: machine.crontab, stderr: '', missing: false };
    if (file === 'crontab') return { status: 1, stdout: '', stderr: 'no crontab for me\n', missing: false };
    if (file === 'systemctl' && args.includes('is-active'))
      return { status: 3, stdout: 'inactive\n', stderr: '', missing: false };
    return { status: 1, stdout: '', stderr: '', missing: false };
  };
  const { ctx, run } = onlineContext(configDir, undefined, { json, env: { HOME: world.dir } });
  if (columns) {
    // stdout a terminal of that width.
    const out = ctx.output as unknown as { options: { stdout: { isTTY?: boolean; columns?: number } } };
    Object.assign(out.options.stdout, { isTTY: true, columns });
  }
  Object.assign(ctx, {
    proc,
    runProgram,
    self: { node: process.execPath, script: __filename, version: '20.20.0', isAlive: (pid: number) => pid === 1 },
  });
  const result = await run(() => runDoctor(ctx));
  if (!json) return { ...result, checks: [] as Check[], byName: {} as Record<string, Check> };
  const { checks } = JSON.parse(result.stdout) as { checks: Check[] };
  return { ...result, checks, byName: Object.fromEntries(checks.map((c) => [c.name, c])) };
}

function lastPoll(configDir: string, minutesAgo: number, extra: object = {}): void {
  const run = {
    ts: new Date(Date.now() - minutesAgo * 60_000).toISOString(),
    kind: 'run',
    summary: { command: 'poll', posted: 0, skipped: 0, failed: 0, exitCode: 0, elapsedMs: 9, ...extra },
  };
  fs.writeFileSync(path.join(configDir, 'history.jsonl'), `${JSON.stringify(run)}\n`, { mode: 0o600 });
}

const entry = (configDir: string, every = 5) =>
  `${markerLine(configDir)}\n${cronLine({ node: process.execPath, script: __filename, configDir }, every, path.join(configDir, 'poll.log'))}\n`;

describe('agent doctor', () => {
  it('a healthy agent, scheduled: every check ok, exit 0, one GET /agent/me, never the key', async () => {
    const dir = path.join(world.dir, 'config');
    const key = await registerWith(world.sandbox.url, dir, 'doctor-agent');
    lastPoll(dir, 3);
    const before = world.sandbox.requests.length;
    const { code, checks } = await doctor(dir, { crontab: entry(dir), processes: ['cron'] });
    expect(code).toBe(0);
    // No watcher runs here and no agent is set aside: every other check has its line, in order, ok.
    const shown = DOCTOR_CHECKS.map((c) => c.name).filter((name) => name !== 'watcher' && name !== 'set aside');
    expect(checks.map((c) => `${c.status} ${c.name}`)).toEqual(shown.map((name) => `ok ${name}`));
    expect(checks.find((c) => c.name === 'service')?.detail).toContain('accepts the key (agent doctor-agent');
    expect(checks.find((c) => c.name === 'alerts')?.detail).toMatch(/^none set: /);
    expect(checks.find((c) => c.name === 'schedule')?.detail).toBe(
      `cron runs ${__filename} with ${process.execPath} every 5 minutes for this config dir`,
    );
    expect(world.sandbox.requests.slice(before).map((r) => `${r.method} ${r.path}`)).toEqual(['GET /agent/me']);

    const text = await doctor(dir, { crontab: entry(dir), processes: ['cron'] }, { json: false });
    expect(text.stdout).toMatch(/^ok {4}node {8}Node 20\.20\.0/m);
    expect(text.stdout).toMatch(/^ok {4}last poll {3}/m);
    expect(text.stdout + text.stderr).not.toContain(key);
  });

  it('an entry no cron daemon runs, and a last poll that failed: each fails with its fix, exit 1', async () => {
    const dir = path.join(world.dir, 'config');
    await registerWith(world.sandbox.url, dir);
    lastPoll(dir, 3, { failed: 1, exitCode: 5, error: 'the service failed (503)' });
    const { code, byName } = await doctor(dir, { crontab: entry(dir), processes: ['sshd'] });
    expect(code).toBe(1);
    expect(byName.schedule).toMatchObject({
      status: 'fail',
      detail: expect.stringContaining('no cron daemon runs: nothing runs it'),
      fix: expect.stringContaining('systemctl enable --now cron'),
    });
    expect(byName['last poll']).toMatchObject({
      status: 'fail',
      detail: expect.stringContaining('the service failed (503)'),
    });
  });

  it('a key the service rejects fails with the fix; nothing scheduled is a warning that says how', async () => {
    const dir = path.join(world.dir, 'config');
    await registerWith(world.sandbox.url, dir);
    world.sandbox.intercept((_req, res) => {
      res.writeHead(401, { 'content-type': 'application/json' }).end('{"message":"invalid key"}');
      return true;
    });
    const { code, byName } = await doctor(dir);
    expect(code).toBe(1);
    expect(byName.service).toMatchObject({
      status: 'fail',
      detail: `${world.sandbox.url} rejected the key (401)`,
      fix: 'agent register --force (the old state is kept as a backup)',
    });
    expect(byName.schedule).toMatchObject({ status: 'warn', fix: 'agent schedule --install' });
  });

  it('a pause the service asked for, and a lock left by a dead run: warnings, and nothing sent', async () => {
    const dir = path.join(world.dir, 'config');
    await registerWith(world.sandbox.url, dir);
    const file = path.join(dir, 'state.json');
    const until = new Date(Date.now() + 30 * 60_000).toISOString();
    fs.writeFileSync(file, JSON.stringify({ ...JSON.parse(fs.readFileSync(file, 'utf8')), rateLimitedUntil: until }), {
      mode: 0o600,
    });
    fs.writeFileSync(
      path.join(dir, 'lock'),
      JSON.stringify({ pid: 2 ** 22 + 7, startedAt: new Date().toISOString() }),
      {
        mode: 0o600,
      },
    );
    const before = world.sandbox.requests.length;
    const { code, byName } = await doctor(dir);
    expect(code).toBe(0);
    expect(world.sandbox.requests.length).toBe(before);
    expect(byName.service).toMatchObject({ status: 'warn', detail: expect.stringContaining(`pause until ${until}`) });
    expect(byName['rate limit']).toMatchObject({
      status: 'warn',
      detail: expect.stringContaining('nothing is sent until'),
    });
    expect(byName.lock).toMatchObject({ status: 'warn', detail: expect.stringContaining('a run that is gone') });
  });

  it('no agent registered, or a state others can read: the state fails with the fix, the service is not asked', async () => {
    const empty = await doctor(path.join(world.dir, 'empty'));
    expect(empty.code).toBe(1);
    expect(empty.byName.state).toMatchObject({ status: 'fail', fix: expect.stringContaining('agent register') });
    expect(empty.byName.service).toMatchObject({ status: 'warn', detail: expect.stringContaining('not checked') });

    const dir = path.join(world.dir, 'config');
    await registerWith(world.sandbox.url, dir);
    fs.chmodSync(path.join(dir, 'state.json'), 0o644);
    const before = world.sandbox.requests.length;
    const open = await doctor(dir);
    expect(open.code).toBe(1);
    expect(open.byName.state).toMatchObject({ status: 'fail', fix: expect.stringContaining('chmod') });
    expect(world.sandbox.requests.length).toBe(before);
  });

  it('an analyzer or alert program others could swap (behind a link, in a group-writable dir): each fails', async () => {
    const dir = path.join(world.dir, 'config');
    await registerWith(world.sandbox.url, dir);
    const open = path.join(world.dir, 'open');
    fs.mkdirSync(open, { mode: 0o777 });
    fs.chmodSync(open, 0o777);
    fs.writeFileSync(path.join(open, 'analyzer.sh'), '#!/bin/sh\necho {}\n', { mode: 0o755 });
    const own = path.join(world.dir, 'own');
    fs.mkdirSync(own, { mode: 0o755 });
    fs.symlinkSync(path.join(open, 'analyzer.sh'), path.join(own, 'analyzer.sh'));
    const team = path.join(world.dir, 'team');
    fs.mkdirSync(team);
    fs.chmodSync(team, 0o775);
    fs.chownSync(team, process.getuid?.() ?? 0, 65534);
    fs.writeFileSync(path.join(team, 'alert.mjs'), '', { mode: 0o644 });
    const settings = {
      analyzer: 'command',
      'analyzer.command': path.join(own, 'analyzer.sh'),
      'alert.command': `${process.execPath} ${path.join(team, 'alert.mjs')}`,
    };
    fs.writeFileSync(path.join(dir, 'config.json'), JSON.stringify(settings), { mode: 0o600 });
    const { code, byName } = await doctor(dir);
    expect(code).toBe(1);
    expect(byName.analyzer).toMatchObject({
      status: 'fail',
      detail: expect.stringContaining(`is in ${open}, which others can write to`),
    });
    expect(byName.alerts).toMatchObject({
      status: 'fail',
      detail: expect.stringContaining(`is in ${team}, which others can write to`),
    });
  });

  it('at a 60-column terminal: each line within the width, broken at spaces under its detail', async () => {
    const dir = path.join(world.dir, 'config');
    await registerWith(world.sandbox.url, dir);
    const { stdout } = await doctor(dir, {}, { json: false, columns: 60 });
    const lines = stdout.trimEnd().split('\n');
    for (const line of lines) expect(Array.from(line).length, line).toBeLessThanOrEqual(60);
    // The schedule's warning wraps: its continuation starts under the detail column.
    const at = lines.findIndex((line) => line.startsWith('warn  schedule'));
    const column = lines[at]!.indexOf('nothing runs');
    expect(lines[at + 1]).toMatch(new RegExp(`^ {${column}}\\S`));
  });

  it('advice fits what it reported: no crontab program, no agent yet', async () => {
    const { byName } = await doctor(path.join(world.dir, 'none'), { noCrontab: true });
    expect(byName.state).toMatchObject({ status: 'fail', fix: expect.stringContaining('agent register') });
    // Not "agent schedule --install", which would fail the same way: what makes it possible.
    expect(byName.schedule).toMatchObject({
      status: 'warn',
      detail: expect.stringContaining('there is no crontab program here'),
      fix: expect.stringMatching(/^install cron .*, or agent schedule --install --systemd/),
    });
    // A poll would only say "not registered": registering comes first.
    expect(byName['last poll']).toMatchObject({
      status: 'warn',
      fix: expect.stringMatching(/^after agent register: /),
    });
  });
});
