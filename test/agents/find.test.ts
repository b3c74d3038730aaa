import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findAgents } from '../../src/agents/find.js';
import type { Context, RunProgram } from '../../src/context.js';
import { cronLine, markerLine } from '../../src/schedule/cron.js';
import { systemdUnits, unitName } from '../../src/schedule/systemd.js';
import { offlineContext } from '../support/context.js';

// Where `agent list` and `poll --watch --all` look for this user's agents, with no request sent: the
// default dir, its agents/, the crontab's entries and the systemd user units this program wrote.

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) fs.rmSync(root, { recursive: true, force: true });
});

function machine() {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-find-'));
  roots.push(root);
  const home = path.join(root, 'home');
  const defaultDir = path.join(home, '.config', 'prediction-agent');
  const mkdir = (dir: string) => fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  return { root, home, defaultDir, mkdir };
}

const command = (configDir: string) => ({ node: '/usr/bin/node', script: '/opt/agent/bin/agent.cjs', configDir });
const entry = (configDir: string, every = 5) =>
  `${markerLine(configDir)}\n${cronLine(command(configDir), every, path.join(configDir, 'poll.log'))}\n`;

function context(
  m: ReturnType<typeof machine>,
  crontab: string | undefined | Error,
  given: Partial<Context> = {},
): Context {
  const run: RunProgram = async (file) => {
    if (file !== 'crontab') return { status: 1, stdout: '', stderr: '', missing: true };
    if (crontab instanceof Error) return { status: 1, stdout: '', stderr: crontab.message, missing: false };
    if (crontab === undefined) return { status: 1, stdout: '', stderr: 'no crontab for me', missing: false };
    return { status: 0, stdout: crontab, stderr: '', missing: false };
  };
  const { ctx } = offlineContext(given.configDir ?? m.defaultDir, { env: { HOME: m.home } });
  return { ...ctx, runProgram: run, defaultConfigDir: async () => m.defaultDir, ...given };
}

describe('findAgents', () => {
  it('the default dir (once it holds an agent), each agents/<name>, in that order', async () => {
    const m = machine();
    m.mkdir(path.join(m.defaultDir, 'agents', 'beta'));
    m.mkdir(path.join(m.defaultDir, 'agents', 'alpha'));
    fs.writeFileSync(path.join(m.defaultDir, 'agents', 'stray-file'), '');
    // Only agents/ so far: the default dir is no agent.
    expect((await findAgents(context(m, undefined), () => {})).map((a) => a.configDir)).toEqual([
      path.join(m.defaultDir, 'agents', 'alpha'),
      path.join(m.defaultDir, 'agents', 'beta'),
    ]);
    fs.writeFileSync(path.join(m.defaultDir, 'state.json'), '{}');
    const found = await findAgents(context(m, undefined), () => {});
    expect(found.map((a) => [a.configDir, a.agentName])).toEqual([
      [m.defaultDir, undefined],
      [path.join(m.defaultDir, 'agents', 'alpha'), 'alpha'],
      [path.join(m.defaultDir, 'agents', 'beta'), 'beta'],
    ]);
  });

  it('the config dirs of the crontab entries, with their intervals; one per real path (a link is the same agent)', async () => {
    const m = machine();
    const alpha = path.join(m.defaultDir, 'agents', 'alpha');
    m.mkdir(alpha);
    const elsewhere = path.join(m.root, 'srv', 'agent one');
    m.mkdir(elsewhere);
    const link = path.join(m.root, 'alpha-link');
    fs.symlinkSync(alpha, link);
    const table = `MAILTO=me\n${entry(link, 10)}# prediction-agent: poll for /gone (agent schedule --remove takes it out)\n0 * * * * date\n${entry(elsewhere, 5)}`;
    const found = await findAgents(context(m, table), () => {});
    expect(found).toEqual([
      { configDir: alpha, agentName: 'alpha', cron: { every: 10 } },
      { configDir: elsewhere, cron: { every: 5 } },
    ]);
  });

  it('the config dirs of the systemd user units this program wrote (a service without its timer is no schedule)', async () => {
    const m = machine();
    const units = path.join(m.home, '.config', 'systemd', 'user');
    m.mkdir(units);
    const scheduled = path.join(m.root, 'with "quotes" and %');
    const unscheduled = path.join(m.root, 'service-only');
    for (const dir of [scheduled, unscheduled]) {
      const { service, timer } = systemdUnits(command(dir), 15);
      fs.writeFileSync(path.join(units, `${unitName(dir)}.service`), service);
      if (dir === scheduled) fs.writeFileSync(path.join(units, `${unitName(dir)}.timer`), timer);
    }
    fs.writeFileSync(path.join(units, 'other.service'), '[Service]\nExecStart=/bin/true\n');
    expect(await findAgents(context(m, undefined), () => {})).toEqual([
      { configDir: scheduled, systemd: { every: 15 } },
    ]);
  });

  it('a chosen config dir is listed too; a crontab that cannot be listed is said, and the rest still found', async () => {
    const m = machine();
    const chosen = path.join(m.root, 'chosen');
    m.mkdir(path.join(m.defaultDir, 'agents', 'alpha'));
    const warnings: string[] = [];
    const ctx = context(m, new Error('crontab: cannot open /var/spool'), { configDir: chosen, configDirGiven: true });
    expect((await findAgents(ctx, (w) => warnings.push(w))).map((a) => a.configDir)).toEqual([
      path.join(m.defaultDir, 'agents', 'alpha'),
      chosen,
    ]);
    expect(warnings).toEqual([
      'agent: crontab -l failed: crontab: cannot open /var/spool; agents scheduled there are not listed',
    ]);
  });
});
