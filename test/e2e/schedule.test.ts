import { execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN, registeredWorlds, runAgent, type World } from './harness.js';

// `agent schedule` against Debian's real crontab, never this machine's own table: the tests put a
// `crontab` first on PATH that runs the real one in a private mount namespace, with a temporary
// directory mounted over its spool. Without crontab or mount namespaces (a workstation), they are skipped;
// .ci/run installs cron.

const REAL_CRONTAB = ['/usr/bin/crontab', '/bin/crontab'].find((file) => fs.existsSync(file));
const registered = registeredWorlds();
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function tempDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}

/** A PATH whose `crontab` keeps its table in a spool of its own. */
function privateCrontab(): { path: string; table: () => string; set: (text: string) => void } {
  const spool = tempDir('agent-spool-');
  fs.chmodSync(spool, 0o1730);
  spawnSync('chgrp', ['crontab', spool]);
  const bin = tempDir('agent-bin-');
  const wrapper = path.join(bin, 'crontab');
  fs.writeFileSync(
    wrapper,
    `#!/bin/sh\nexec unshare --mount --propagation private sh -c 'mount --bind "$0" /var/spool/cron/crontabs && exec ${REAL_CRONTAB} "$@"' '${spool}' "$@"\n`,
    { mode: 0o755 },
  );
  const PATH = `${bin}:/usr/bin:/bin`;
  return {
    path: PATH,
    table: () => {
      const listed = spawnSync(wrapper, ['-l'], { encoding: 'utf8', env: { PATH } });
      return listed.status === 0 ? listed.stdout : '';
    },
    set: (text) => execFileSync(wrapper, ['-'], { input: text, env: { PATH } }) && undefined,
  };
}

// Decided as the file loads, so that the tests are skipped, not failed, where it cannot work.
const usable = (() => {
  if (!REAL_CRONTAB) return false;
  try {
    const probe = privateCrontab();
    probe.set('# probe\n');
    return probe.table() === '# probe\n';
  } catch {
    return false;
  } finally {
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  }
})();

const USER_LINES = '# my own jobs\nMAILTO=""\n0 3 * * * /usr/bin/true --nightly  # keep me\n';

async function schedule(w: World, args: string[], PATH: string) {
  return w.agent(['schedule', ...args], { env: { PATH } });
}

describe('agent schedule with cron', () => {
  it.runIf(usable)(
    "installs one entry, once, after the user's own lines, and removes it leaving them byte for byte",
    async () => {
      const w = await registered();
      const cron = privateCrontab();
      cron.set(USER_LINES);
      const first = await schedule(w, ['--install'], cron.path);
      expect(first).toMatchObject({ code: 0, stderr: '' });
      expect(first.stdout).toContain('Scheduled in your crontab: agent poll every 5 minutes');
      const installed = cron.table();
      expect(installed.startsWith(USER_LINES)).toBe(true);
      const entry = installed.slice(USER_LINES.length).split('\n');
      expect(entry[0]).toBe(`# prediction-agent: poll for ${w.configDir} (agent schedule --remove takes it out)`);
      expect(entry[1]).toBe(
        `*/5 * * * * ${process.execPath} ${fs.realpathSync(BIN)} --config-dir ${w.configDir} poll >> ${w.configDir}/poll.log 2>&1; if [ -n "$(find ${w.configDir}/poll.log -size +1024k 2>/dev/null)" ]; then mv -f ${w.configDir}/poll.log ${w.configDir}/poll.log.1; fi`,
      );

      expect((await schedule(w, ['--install'], cron.path)).code).toBe(0);
      expect(cron.table()).toBe(installed);
      const shown = await schedule(w, ['--json'], cron.path);
      expect(JSON.parse(shown.stdout)).toEqual({ kind: 'cron', entry: entry[1], installed: true });

      const removed = await schedule(w, ['--remove'], cron.path);
      expect(removed).toMatchObject({ code: 0, stdout: `Removed the crontab entry for ${w.configDir}.\n` });
      expect(cron.table()).toBe(USER_LINES);
      expect((await schedule(w, ['--remove'], cron.path)).stdout).toContain('nothing changed');
    },
  );

  it.runIf(usable)(
    'the installed line runs a poll as cron would, bare environment and all, and keeps its log bounded',
    async () => {
      const w = await registered();
      const cron = privateCrontab();
      await schedule(w, ['--install', '--every', '1'], cron.path);
      const line = cron.table().split('\n')[1]!;
      expect(line.startsWith('*/1 * * * * ')).toBe(true);
      const log = path.join(w.configDir, 'poll.log');
      fs.writeFileSync(log, 'x'.repeat(1100 * 1024));
      const command = line.replace(/^(\S+\s+){5}/, '');
      // Not spawnSync: the sandbox answering the poll lives in this process.
      const status = await new Promise<number | null>((resolve) => {
        const child = spawn('/bin/sh', ['-c', command], {
          env: { HOME: w.home, PATH: '/usr/bin:/bin' },
          cwd: w.home,
          stdio: 'ignore',
        });
        child.on('close', resolve);
      });
      expect(status).toBe(0);
      expect(w.sandbox.requests.some((r) => r.method === 'GET' && r.path.startsWith('/thread'))).toBe(true);
      // The oversized log was moved aside after the run appended to it; the next run starts a new one.
      expect(fs.statSync(`${log}.1`).size).toBeGreaterThanOrEqual(1100 * 1024);
      expect(fs.existsSync(log)).toBe(false);
    },
  );

  it.runIf(usable)('two config dirs get two entries; removing one leaves the other', async () => {
    const w = await registered();
    const cron = privateCrontab();
    const other = path.join(w.home, 'second');
    fs.cpSync(w.configDir, other, { recursive: true });
    // Node 20's cpSync keeps the directory's mode 700; 22 and 24 make it 755, which the agent refuses.
    fs.chmodSync(other, 0o700);
    expect(await schedule(w, ['--install'], cron.path)).toMatchObject({ code: 0, stderr: '' });
    expect(
      await runAgent(['--config-dir', other, 'schedule', '--install'], w.home, { env: { PATH: cron.path } }),
    ).toMatchObject({ code: 0, stderr: '' });
    expect(cron.table().match(/^# prediction-agent: poll for/gm)).toHaveLength(2);
    await schedule(w, ['--remove'], cron.path);
    expect(cron.table()).toContain(`poll for ${other} `);
    expect(cron.table()).not.toContain(`poll for ${w.configDir} `);
  });
});

describe('agent schedule: what cron would refuse', () => {
  it.runIf(usable)(
    "a config dir so deep that the line passes cron's 998 characters: exit 1 with the fix, the table untouched",
    async () => {
      const w = await registered();
      const cron = privateCrontab();
      cron.set(USER_LINES);
      const deep = path.join(w.home, 'd'.repeat(100), 'e'.repeat(100));
      fs.mkdirSync(path.dirname(deep), { recursive: true });
      fs.cpSync(w.configDir, deep, { recursive: true });
      fs.chmodSync(deep, 0o700);
      const result = await runAgent(['--config-dir', deep, 'schedule', '--install'], w.home, {
        env: { PATH: cron.path },
      });
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(
        /^agent: the crontab entry would be \d+ characters long; cron takes at most 998 \(/,
      );
      expect(result.stderr).toContain('shorter path, or --systemd');
      expect(cron.table()).toBe(USER_LINES);
    },
  );
});

describe('agent schedule: what it refuses', () => {
  it.each([
    [['--every', '0']],
    [['--every', '60']],
    [['--every', '2.5']],
    [['--install', '--remove']],
    [['--systemd', '--log', '/tmp/x']],
  ])('%j is a usage error (exit 2)', async (args) => {
    const w = await registered();
    const result = await w.agent(['schedule', ...args]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^agent: /);
  });

  it('--install before register says to register first (exit 3)', async () => {
    const home = tempDir('agent-home-');
    const result = await runAgent(['--config-dir', path.join(home, 'cfg'), 'schedule', '--install'], home);
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('agent register');
  });

  it('without a crontab program, --install says what to install (exit 1); printing still works', async () => {
    const w = await registered();
    const empty = tempDir('agent-nopath-');
    const installed = await w.agent(['schedule', '--install'], { env: { PATH: empty } });
    expect(installed.code).toBe(1);
    expect(installed.stderr).toContain(
      'there is no crontab program on this machine (install cron (Debian, Ubuntu: sudo apt-get install cron)',
    );
    const printed = await w.agent(['schedule', '--json'], { env: { PATH: empty } });
    expect(JSON.parse(printed.stdout)).toMatchObject({ kind: 'cron', installed: false });
  });

  it('--systemd --install without a user systemd says so and writes no unit (exit 1); the units print anywhere', async () => {
    const w = await registered();
    const configHome = tempDir('agent-xdg-');
    // A bus address that answers nothing: systemctl --user cannot reach a user manager.
    const env = {
      XDG_CONFIG_HOME: configHome,
      DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent',
      XDG_RUNTIME_DIR: configHome,
    };
    const installed = await w.agent(['schedule', '--systemd', '--install'], { env });
    expect(installed.code).toBe(1);
    expect(installed.stderr).toMatch(/there is no (user systemd here|systemctl on this machine)/);
    expect(fs.existsSync(path.join(configHome, 'systemd'))).toBe(false);
    const printed = await w.agent(['schedule', '--systemd', '--json'], { env });
    const doc = JSON.parse(printed.stdout);
    expect(doc).toMatchObject({ kind: 'systemd', installed: false });
    expect(doc.entry).toContain(`"--config-dir" "${w.configDir}" "poll"`);
    expect(doc.entry).toContain(path.join(configHome, 'systemd', 'user'));
  });
});
