import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN, type RunResult } from './harness.js';

// `agent config set` as a newcomer meets it, as an ordinary user: as root the commands run as nobody.

const homes: string[] = [];
afterEach(() => {
  for (const dir of homes.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

const NOBODY = 65534;
const asUser: { uid?: number; gid?: number } = process.getuid?.() === 0 ? { uid: NOBODY, gid: NOBODY } : {};
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
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, '--config-dir', path.join(home, 'cfg'), ...args], {
      env: { HOME: home, PATH: process.env.PATH ?? '/usr/bin:/bin' },
      stdio: ['ignore', 'pipe', 'pipe'],
      ...asUser,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('config set llm.key-file', () => {
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
