import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { asUser, NOBODY, userCanRun } from './as-user.js';
import { BIN, collected, type RunResult, runAgent } from './harness.js';

// `agent config set` as a newcomer meets it, as an ordinary user: as root the commands run as nobody.

const homes: string[] = [];
afterEach(() => {
  for (const dir of homes.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** Gives a file to the user the commands run as, when that is another one. */
const giveToUser = (file: string) => asUser.uid !== undefined && fs.chownSync(file, NOBODY, NOBODY);

/** A home of the user the commands run as. */
function userHome(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-config-set-'));
  homes.push(dir);
  fs.chmodSync(dir, 0o755);
  giveToUser(dir);
  return dir;
}

function agentAsUser(home: string, args: string[]): Promise<RunResult> {
  return collected(
    spawn(process.execPath, [BIN, '--config-dir', path.join(home, 'cfg'), ...args], {
      env: { HOME: home, PATH: process.env.PATH ?? '/usr/bin:/bin' },
      stdio: ['ignore', 'pipe', 'pipe'],
      ...asUser,
    }),
  );
}

describe.runIf(userCanRun())('config set llm.key-file', () => {
  // /etc/passwd is root's, mode 644: "chmod 600 /etc/passwd" is advice this user cannot follow, and must not.
  const foreign = fs.statSync('/etc/passwd');
  it.skipIf(foreign.uid === (asUser.uid ?? process.getuid?.()))(
    "a file that is not the user's own is refused as such, never with a chmod to run on it",
    async () => {
      const home = userHome();
      const result = await agentAsUser(home, ['config', 'set', 'llm.key-file', '/etc/passwd']);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('the LLM key file /etc/passwd belongs to root (uid 0), not to you');
      expect(result.stderr).toContain('install -m 600 /dev/null');
      expect(result.stderr).not.toContain('chmod');
      expect(fs.existsSync(path.join(home, 'cfg', 'config.json'))).toBe(false);
    },
  );

  it("the user's own file open to others is still told the chmod that fixes it", async () => {
    const home = userHome();
    const keyFile = path.join(home, 'llm.key');
    fs.writeFileSync(keyFile, 'sk-test-0123456789\n', { mode: 0o644 });
    giveToUser(keyFile);
    const result = await agentAsUser(home, ['config', 'set', 'llm.key-file', keyFile]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`chmod 600 '${keyFile}'`);
  });
});

describe('config set analyzer: never a switch that leaves every poll failing', () => {
  // With analyzer command and no analyzer.command, every cron poll fails until someone notices; the
  // threads age meanwhile. The switch is refused until what that analyzer needs is set.
  const EXAMPLE = path.join(import.meta.dirname, '..', '..', 'examples', 'momentum-analyzer.mjs');
  const me = () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-config-analyzer-'));
    homes.push(home);
    const dir = path.join(home, 'cfg');
    return {
      home,
      dir,
      run: (args: string[], cwd?: string) => runAgent(['--config-dir', dir, ...args], home, { cwd }),
      stored: () =>
        fs.existsSync(path.join(dir, 'config.json'))
          ? JSON.parse(fs.readFileSync(path.join(dir, 'config.json'), 'utf8'))
          : {},
    };
  };

  it('analyzer command without analyzer.command: refused, with the command to run first', async () => {
    const { run, stored, dir } = me();
    const refused = await run(['config', 'set', 'analyzer', 'command']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('analyzer.command is not set');
    expect(refused.stderr).toContain('every poll');
    expect(refused.stderr).toContain(`agent --config-dir ${dir} config set analyzer.command "<your command>"`);
    expect(refused.stdout).toBe('');
    expect(stored().analyzer).toBeUndefined();

    const command = `${process.execPath} ${EXAMPLE}`;
    expect((await run(['config', 'set', 'analyzer.command', command])).code).toBe(0);
    const switched = await run(['config', 'set', 'analyzer', 'command']);
    expect(switched).toMatchObject({ code: 0, stderr: '' });
    expect(switched.stdout).toMatch(/^Set analyzer = command in /);
    expect(stored()).toEqual({ 'analyzer.command': command, analyzer: 'command' });
  });

  it('analyzer llm without its address and model: refused, naming both', async () => {
    const { run, stored } = me();
    const refused = await run(['config', 'set', 'analyzer', 'llm']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('llm.base-url and llm.model are not set');
    expect(stored()).toEqual({});
  });

  it('unsetting what the chosen analyzer needs is refused too', async () => {
    const { run, stored, dir } = me();
    const command = `${process.execPath} ${EXAMPLE}`;
    expect((await run(['config', 'set', 'analyzer.command', command])).code).toBe(0);
    expect((await run(['config', 'set', 'analyzer', 'command'])).code).toBe(0);
    const refused = await run(['config', 'unset', 'analyzer.command']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`agent --config-dir ${dir} config set analyzer builtin`);
    expect(stored()['analyzer.command']).toBe(command);
  });

  it('its result comes first, then any note about it', async () => {
    const { home, dir } = me();
    const script = path.join(home, 'mine.mjs');
    fs.writeFileSync(script, 'console.log("{}")\n', { mode: 0o644 });
    // stdout and stderr into one pipe, in the order they were written, as a terminal shows them.
    const shown = await new Promise<string>((resolve) => {
      const child = spawn(
        '/bin/sh',
        [
          '-c',
          '"$@" 2>&1',
          'sh',
          process.execPath,
          BIN,
          '--config-dir',
          dir,
          'config',
          'set',
          'analyzer.command',
          `${process.execPath} ./mine.mjs`,
        ],
        {
          cwd: home,
          env: { HOME: home, PATH: process.env.PATH ?? '/usr/bin:/bin' },
          stdio: ['ignore', 'pipe', 'inherit'],
        },
      );
      let out = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
      child.on('close', () => resolve(out));
    });
    const lines = shown.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^Set analyzer\.command = /);
    expect(lines[1]).toMatch(/^note: \.\/mine\.mjs is a relative path/);
  });
});
