import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BULLISH, minutesAgo, registeredWorlds, type World } from './harness.js';

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
