import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cronLine, markerLine } from '../../src/schedule/cron.js';
import { systemdUnits, unitName } from '../../src/schedule/systemd.js';
import { BIN, BULLISH, minutesAgo, registeredWorlds, type World } from './harness.js';

// What doctor says about the unattended run, checked against what cron will actually do: a crontab entry
// with no cron daemon runs nothing, another config dir's timer is not this one's, a poll is late by the
// interval installed, and an analyzer is looked for where cron runs it (the home directory).

const registered = registeredWorlds();
type Check = { name: string; status: 'ok' | 'warn' | 'fail'; detail: string; fix?: string };

interface Machine {
  /** Processes seen in the (test) process table, by name. */
  processes?: string[];
  /** What `systemctl is-active …` answers. */
  active?: string;
  /** The crontab's lines, or none. */
  crontab?: string;
}

/** doctor on a machine of our making: a process table, a crontab and a systemctl of the test's own. */
async function doctor(w: World, machine: Machine, env: Record<string, string> = {}) {
  const root = fs.mkdtempSync(path.join(w.home, 'machine-'));
  const proc = path.join(root, 'proc');
  for (const [i, name] of ['init', ...(machine.processes ?? [])].entries()) {
    fs.mkdirSync(path.join(proc, String(i + 1)), { recursive: true });
    fs.writeFileSync(path.join(proc, String(i + 1), 'comm'), `${name}\n`);
  }
  const bin = path.join(root, 'bin');
  fs.mkdirSync(bin);
  fs.writeFileSync(path.join(root, 'crontab.txt'), machine.crontab ?? '');
  const crontab = machine.crontab === undefined ? 'echo "no crontab for you" >&2; exit 1' : `cat '${root}/crontab.txt'`;
  fs.writeFileSync(path.join(bin, 'crontab'), `#!/bin/sh\n${crontab}\n`, { mode: 0o755 });
  const active = machine.active ?? 'inactive';
  fs.writeFileSync(
    path.join(bin, 'systemctl'),
    `#!/bin/sh\ncase "$*" in *is-active*) echo ${active}; [ ${active} = active ];; *) exit 1;; esac\n`,
    { mode: 0o755 },
  );
  const result = await w.agent(['doctor', '--json'], {
    env: { PATH: `${bin}:/usr/bin:/bin`, AGENT_TEST_PROC: proc, ...env },
  });
  const checks = JSON.parse(result.stdout).checks as Check[];
  return { code: result.code, byName: Object.fromEntries(checks.map((c) => [c.name, c])) };
}

const command = (w: World) => ({ node: process.execPath, script: BIN, configDir: w.configDir });
const entry = (w: World, every = 5) =>
  `${markerLine(w.configDir)}\n${cronLine(command(w), every, path.join(w.configDir, 'poll.log'))}\n`;

function lastPoll(w: World, minutes: number): void {
  const run = {
    ts: minutesAgo(minutes),
    kind: 'run',
    summary: { command: 'poll', posted: 0, skipped: 0, failed: 0, exitCode: 0, elapsedMs: 9 },
  };
  fs.writeFileSync(path.join(w.configDir, 'history.jsonl'), `${JSON.stringify(run)}\n`, { mode: 0o600 });
}

describe('doctor and the cron daemon', () => {
  it('a crontab entry with no cron daemon running fails: nothing would run it', async () => {
    const w = await registered();
    const { code, byName } = await doctor(w, { crontab: entry(w), processes: ['sshd', 'bash'] });
    expect(code).toBe(1);
    expect(byName.schedule).toMatchObject({
      status: 'fail',
      detail: expect.stringContaining('no cron daemon runs'),
      fix: expect.stringContaining('cron'),
    });
  });

  it.each([
    ['a process named cron', { processes: ['cron'] }],
    ['a process named crond', { processes: ['crond'] }],
    ["systemd's cron unit, active", { active: 'active' }],
  ])('a crontab entry with %s is fine, and says how often it runs', async (_what, machine) => {
    const w = await registered();
    const { byName } = await doctor(w, { crontab: entry(w, 10), ...machine });
    expect(byName.schedule).toMatchObject({ status: 'ok', detail: expect.stringContaining('every 10 minutes') });
  });
});

describe('doctor and systemd timers', () => {
  const installTimer = (w: World, configDir: string) => {
    const units = path.join(w.home, '.config', 'systemd', 'user');
    fs.mkdirSync(units, { recursive: true });
    const { timer } = systemdUnits({ ...command(w), configDir }, 15);
    fs.writeFileSync(path.join(units, `${unitName(configDir)}.timer`), timer);
  };

  it("another config dir's timer is not this one's", async () => {
    const w = await registered();
    installTimer(w, path.join(w.home, 'another-agent'));
    const { byName } = await doctor(w, { active: 'active' });
    expect(byName.schedule).toMatchObject({
      status: 'warn',
      fix: `agent --config-dir ${w.configDir} schedule --install`,
    });
  });

  it("this config dir's timer: fine when active, a failure when it is not", async () => {
    const w = await registered();
    installTimer(w, w.configDir);
    expect((await doctor(w, { active: 'active' })).byName.schedule).toMatchObject({
      status: 'ok',
      detail: expect.stringContaining('every 15 minutes'),
    });
    const inactive = await doctor(w, { active: 'inactive' });
    expect(inactive.byName.schedule).toMatchObject({
      status: 'fail',
      detail: expect.stringContaining('not active'),
      fix: expect.stringContaining(`systemctl --user enable --now ${unitName(w.configDir)}.timer`),
    });
  });
});

describe('doctor and the last poll', () => {
  it('is late by the interval installed, not after a fixed hour', async () => {
    const w = await registered();
    lastPoll(w, 20);
    const every5 = await doctor(w, { crontab: entry(w, 5), processes: ['cron'] });
    expect(every5.byName['last poll']).toMatchObject({
      status: 'warn',
      detail: expect.stringContaining('every 5 minutes'),
    });
    const every30 = await doctor(w, { crontab: entry(w, 30), processes: ['cron'] });
    expect(every30.byName['last poll']).toMatchObject({ status: 'ok' });
  });
});

describe('doctor and the analyzer cron runs', () => {
  const setCommand = (w: World, line: string) =>
    fs.writeFileSync(
      path.join(w.configDir, 'config.json'),
      JSON.stringify({ analyzer: 'command', 'analyzer.command': line }),
      { mode: 0o600 },
    );

  it('a script named relative to here, which cron (in the home directory) will not find, fails', async () => {
    const w = await registered();
    // examples/momentum-analyzer.mjs is there from this repository's root, where the test runs: not in HOME.
    expect(fs.existsSync('examples/momentum-analyzer.mjs')).toBe(true);
    setCommand(w, `'${process.execPath}' examples/momentum-analyzer.mjs`);
    const { code, byName } = await doctor(w, {});
    expect(code).toBe(1);
    expect(byName.analyzer).toMatchObject({
      status: 'fail',
      detail: expect.stringContaining(path.join(w.home, 'examples', 'momentum-analyzer.mjs')),
    });
    // The same script where cron will look for it is fine.
    fs.mkdirSync(path.join(w.home, 'examples'));
    fs.copyFileSync('examples/momentum-analyzer.mjs', path.join(w.home, 'examples', 'momentum-analyzer.mjs'));
    expect((await doctor(w, {})).byName.analyzer).toMatchObject({ status: 'ok' });
  });

  it('config set warns about a relative path that is not there', async () => {
    const w = await registered();
    const set = await w.agent(['config', 'set', 'analyzer.command', `'${process.execPath}' examples/nope.mjs`]);
    expect(set.code).toBe(0);
    expect(set.stderr).toMatch(/examples\/nope\.mjs does not exist/);
  });

  it("a failing analyzer is quoted by its first error line, not Node's version at the end", async () => {
    const w = await registered();
    const missing = path.join(w.home, 'gone.mjs');
    setCommand(w, `'${process.execPath}' '${missing}'`);
    w.sandbox.addThread({ id: 't', text: BULLISH, project_id: 'c/bitcoin', timestamp: minutesAgo(2) });
    const analyzed = await w.agent(['analyze', 't', '-v']);
    expect(analyzed.code).toBe(5);
    expect(analyzed.stderr).toMatch(/\(stderr: Error: Cannot find module/);
    expect(analyzed.stderr).not.toMatch(/\(stderr: Node\.js v/);
  });
});
