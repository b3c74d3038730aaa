import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runSchedule, type ScheduleOptions } from '../../../src/commands/schedule/run.js';
import type { RunProgram } from '../../../src/context.js';
import { unitName } from '../../../src/schedule/systemd.js';
import { offlineContext } from '../../support/context.js';
import { registeredDir, shown } from '../../support/in-process.js';

// `agent schedule` run in-process, with a crontab (and a systemctl) that only keep what they are given:
// the text written to the table, what is printed, the exit codes. test/e2e/schedule.test.ts runs the same
// against Debian's real crontab, where there is one.

const NODE = '/usr/bin/node';
const SCRIPT = '/opt/agent/bin/agent.cjs';
const USER_LINES = '# my own jobs\nMAILTO=""\n0 3 * * * /usr/bin/true --nightly  # keep me\n';

let root: string;
let dir: string;
beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-schedule-'));
  dir = registeredDir(path.join(root, 'config')).dir;
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

/** A user's crontab: `crontab -l` lists `table` (none: "no crontab for"), `crontab -` replaces it. */
function fakeCrontab(table?: string, { refuse = false, missing = false } = {}) {
  const calls: string[] = [];
  const run: RunProgram = async (file, args, input) => {
    calls.push([file, ...args].join(' '));
    if (missing || file !== 'crontab') return { status: null, stdout: '', stderr: '', missing: true };
    if (args[0] === '-l')
      return table === undefined
        ? { status: 1, stdout: '', stderr: 'no crontab for me\n', missing: false }
        : { status: 0, stdout: table, stderr: '', missing: false };
    if (refuse) return { status: 1, stdout: '', stderr: '"-":4: bad minute\n', missing: false };
    table = input;
    return { status: 0, stdout: '', stderr: '', missing: false };
  };
  return { run, calls, table: () => table };
}

function schedule(
  options: ScheduleOptions,
  run: RunProgram,
  { json = false, configDir = dir, env = {} as Record<string, string> } = {},
) {
  const { ctx, stdout, stderr } = offlineContext(configDir, { json, verbose: true, env: { HOME: root, ...env } });
  ctx.self = { node: NODE, script: SCRIPT, version: '20.20.0', isAlive: () => false };
  ctx.runProgram = run;
  ctx.configDirGiven = true;
  return shown(ctx, { stdout, stderr }, () => runSchedule(ctx, options));
}

const lineFor = (every: number, configDir = dir, log = `${configDir}/poll.log`) =>
  `*/${every} * * * * ${NODE} ${SCRIPT} --config-dir ${configDir} poll --log ${log}`;

describe('agent schedule with cron', () => {
  it("installs one entry after the user's lines, once, and --remove leaves them byte for byte", async () => {
    const cron = fakeCrontab(USER_LINES);
    const first = await schedule({ install: true }, cron.run);
    expect(first).toMatchObject({ code: 0, stderr: '' });
    expect(first.stdout).toBe(
      `Scheduled in your crontab: agent poll every 5 minutes, its output appended to ${dir}/poll.log with the time on each line (moved to ${dir}/poll.log.1 past 1024 KiB).\n${lineFor(5)}\n`,
    );
    expect(cron.table()).toBe(
      `${USER_LINES}# prediction-agent: poll for ${dir} (agent schedule --remove takes it out)\n${lineFor(5)}\n`,
    );

    // Installed again: the same table, not even written.
    const installed = cron.table();
    expect((await schedule({ install: true }, cron.run)).code).toBe(0);
    expect(cron.table()).toBe(installed);
    expect(cron.calls.filter((call) => call === 'crontab -')).toHaveLength(1);

    const json = await schedule({}, cron.run, { json: true });
    expect(JSON.parse(json.stdout)).toEqual({ kind: 'cron', entry: lineFor(5), installed: true, interval: 5 });

    expect(await schedule({ remove: true }, cron.run)).toMatchObject({
      code: 0,
      stdout: `Removed the crontab entry for ${dir}.\n`,
    });
    expect(cron.table()).toBe(USER_LINES);
    expect((await schedule({ remove: true }, cron.run)).stdout).toBe(`No crontab entry for ${dir}; nothing changed.\n`);
  });

  it('keeps the installed interval and log unless given; shows another --every with the command that installs it', async () => {
    const cron = fakeCrontab();
    const log = path.join(root, 'logs', 'agent.log');
    expect((await schedule({ install: true, every: '10', log: '~/logs/agent.log' }, cron.run)).code).toBe(0);
    expect(fs.statSync(path.dirname(log)).isDirectory()).toBe(true);
    const entry = lineFor(10, dir, log);
    expect(cron.table()).toContain(`\n${entry}\n`);

    const plain = await schedule({}, cron.run);
    expect(plain.stdout).toBe(`${entry}\n`);
    expect(plain.stderr).toContain('agent: installed: every 10 minutes');

    const other = await schedule({ every: '5' }, cron.run);
    expect(other.stdout).toBe(`${lineFor(5, dir, log)}\n`);
    expect(other.stderr).toContain(`installed for this config dir, every 10 minutes: ${entry}`);
    expect(other.stderr).toContain(`"agent --config-dir ${dir} schedule --install --every 5" replaces it`);

    expect((await schedule({ install: true }, cron.run)).stdout).toContain('every 10 minutes');
    expect(cron.table()).toContain(`\n${entry}\n`);
    expect(cron.table()?.match(/^# prediction-agent/gm)).toHaveLength(1);
  });

  it('not installed: prints the line and the command that installs it, and writes nothing', async () => {
    const cron = fakeCrontab(USER_LINES);
    const printed = await schedule({ every: '7' }, cron.run);
    expect(printed.stdout).toBe(`${lineFor(7)}\n`);
    expect(printed.stderr).toContain(`agent: not installed; "agent --config-dir ${dir} schedule --install --every 7"`);
    expect(cron.calls).toEqual(['crontab -l']);
    expect(cron.table()).toBe(USER_LINES);
  });
});

describe('agent schedule: what it refuses, and the table untouched', () => {
  it.each<[ScheduleOptions, RegExp]>([
    [{ every: '0' }, /--every must be a whole number of minutes from 1 to 59 \(got "0"\)/],
    [{ every: '60' }, /from 1 to 59 \(got "60"\)/],
    [{ every: '2.5' }, /from 1 to 59 \(got "2\.5"\)/],
    [{ install: true, remove: true }, /--install and --remove cannot go together/],
    [{ systemd: true, log: '/tmp/x' }, /--log is for cron; with --systemd the output goes to the journal/],
  ])('%j: a usage error, exit 2, nothing run', async (options, message) => {
    const cron = fakeCrontab(USER_LINES);
    const result = await schedule(options, cron.run);
    expect(result).toMatchObject({ code: 2, stdout: '' });
    expect(result.stderr).toMatch(message);
    expect(cron.calls).toEqual([]);
  });

  it('--install before register: exit 3, naming the register command for this config dir', async () => {
    const cron = fakeCrontab(USER_LINES);
    const empty = path.join(root, 'empty');
    const result = await schedule({ install: true }, cron.run, { configDir: empty });
    expect(result.code).toBe(3);
    expect(result.stderr).toContain(`run "agent --config-dir ${empty} register" first`);
    expect(cron.calls).toEqual([]);
  });

  it('no crontab program: --install says what to install (exit 1); printing still works', async () => {
    const cron = fakeCrontab(undefined, { missing: true });
    const installed = await schedule({ install: true }, cron.run);
    expect(installed.code).toBe(1);
    expect(installed.stderr).toContain(
      'there is no crontab program on this machine (install cron (Debian, Ubuntu: sudo apt-get install cron), or use --systemd)',
    );
    const printed = await schedule({}, cron.run, { json: true });
    expect(JSON.parse(printed.stdout)).toEqual({ kind: 'cron', entry: lineFor(5), installed: false, interval: null });
  });

  it('a crontab that refuses the new table: exit 1 with its reason', async () => {
    const cron = fakeCrontab(USER_LINES, { refuse: true });
    const result = await schedule({ install: true }, cron.run);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('crontab refused the new table: "-":4: bad minute');
  });

  it("a config dir so deep that the line passes cron's 998 characters: exit 1 with the fix, nothing written", async () => {
    const deep = registeredDir(path.join(root, 'd'.repeat(250), 'e'.repeat(250))).dir;
    const cron = fakeCrontab(USER_LINES);
    const result = await schedule({ install: true }, cron.run, { configDir: deep });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^agent: the crontab entry would be \d+ characters long; cron takes at most 998 \(/);
    expect(result.stderr).toContain('shorter path, or --systemd');
    expect(cron.calls).toEqual(['crontab -l']);
  });

  it('a --log with a newline: exit 2, nothing written', async () => {
    const cron = fakeCrontab(USER_LINES);
    const result = await schedule({ install: true, log: path.join(root, 'x\n* * * * * touch /tmp/pwned') }, cron.run);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^agent: the log ".*" holds a newline, which a crontab line cannot carry/);
    expect(cron.table()).toBe(USER_LINES);
  });
});

/** A user systemd that answers every `systemctl --user` (or none: `show-environment` fails). */
function fakeSystemctl({ running = true } = {}) {
  const calls: string[] = [];
  const run: RunProgram = async (file, args) => {
    calls.push([file, ...args].join(' '));
    if (file !== 'systemctl') return { status: null, stdout: '', stderr: '', missing: true };
    if (!running)
      return { status: 1, stdout: '', stderr: 'Failed to connect to bus: No medium found\n', missing: false };
    return { status: 0, stdout: '', stderr: '', missing: false };
  };
  return { run, calls };
}

describe('agent schedule --systemd', () => {
  it('--install writes the service and the timer, reloads and enables it; --remove takes both out', async () => {
    const xdg = path.join(root, 'xdg');
    const env = { XDG_CONFIG_HOME: xdg };
    const systemctl = fakeSystemctl();
    const name = unitName(dir);
    const units = path.join(xdg, 'systemd', 'user');

    const installed = await schedule({ systemd: true, install: true, every: '15' }, systemctl.run, { env });
    expect(installed).toMatchObject({ code: 0, stderr: '' });
    expect(installed.stdout).toBe(
      `Scheduled with systemd: ${name}.timer runs agent poll every 15 minutes.\nIts output: journalctl --user -u ${name}\n`,
    );
    expect(systemctl.calls).toEqual([
      'systemctl --user show-environment',
      'systemctl --user daemon-reload',
      `systemctl --user enable --now ${name}.timer`,
    ]);
    const service = fs.readFileSync(path.join(units, `${name}.service`), 'utf8');
    expect(service).toContain(`ExecStart="${NODE}" "${SCRIPT}" "--config-dir" "${dir}" "poll"`);
    expect(fs.readFileSync(path.join(units, `${name}.timer`), 'utf8')).toContain('OnCalendar=*:0/15\n');

    const json = JSON.parse((await schedule({ systemd: true }, systemctl.run, { env, json: true })).stdout);
    expect(json).toMatchObject({ kind: 'systemd', installed: true, interval: 15 });
    expect(json.entry).toContain(`# ${path.join(units, `${name}.timer`)}\n`);

    systemctl.calls.length = 0;
    expect(await schedule({ systemd: true, remove: true }, systemctl.run, { env })).toMatchObject({
      code: 0,
      stdout: `Removed ${name}.timer and ${name}.service.\n`,
    });
    expect(systemctl.calls).toContain(`systemctl --user disable --now ${name}.timer`);
    expect(fs.readdirSync(units)).toEqual([]);
  });

  it('without a user systemd: --install says so, exit 1, and writes no unit', async () => {
    const xdg = path.join(root, 'xdg');
    const result = await schedule({ systemd: true, install: true }, fakeSystemctl({ running: false }).run, {
      env: { XDG_CONFIG_HOME: xdg },
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('there is no user systemd here (systemctl --user: Failed to connect to bus');
    expect(result.stderr).toContain(`use cron instead: agent --config-dir ${dir} schedule --install`);
    expect(fs.existsSync(path.join(xdg, 'systemd'))).toBe(false);
  });
});
