import { execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const DEMO = fileURLToPath(new URL('../../scripts/demo.mjs', import.meta.url));
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

interface DemoRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `npm start`'s script with a short duration. Speed 900 locks the sandbox's whole unlocked backlog
 * (threads up to 160 sandbox minutes from their lock) within ~11 s, so predictions from the first poll are
 * scored before a 12 s demo ends even if start-up is slow.
 */
function runDemo(
  env: Record<string, string>,
  onStdout?: (stdout: string, kill: (signal: NodeJS.Signals) => void) => void,
): Promise<DemoRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [DEMO], {
      cwd: ROOT,
      env: {
        HOME: process.env.HOME ?? '/tmp',
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        DEMO_SPEED: '900',
        DEMO_POLL_SECONDS: '3',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      onStdout?.(stdout, (signal) => child.kill(signal));
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), 40_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

function refused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
  });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** What every run must leave behind: nothing. */
async function expectNothingLeft(stdout: string): Promise<void> {
  const tmp = /^Temporary dir: (\S+)/m.exec(stdout)?.[1];
  const port = Number(/^Sandbox listening on http:\/\/127\.0\.0\.1:(\d+)/m.exec(stdout)?.[1]);
  const pid = Number(/^Sandbox stopped \(pid (\d+)\)/m.exec(stdout)?.[1]);
  expect(tmp).toMatch(/agent-demo-/);
  expect(fs.existsSync(tmp!)).toBe(false);
  expect(port).toBeGreaterThan(0);
  expect(await refused(port)).toBe(true);
  expect(alive(pid)).toBe(false);
}

describe('the demo (npm start)', () => {
  it('registers, polls, posts, scores, and leaves nothing behind', async () => {
    const run = await runDemo({ DEMO_SECONDS: '12' });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Sandbox listening on http:\/\/127\.0\.0\.1:\d+/m);
    expect(run.stdout).toMatch(/^ {2}Registered demo-[0-9a-f]{6}/m);
    expect(run.stdout).toMatch(/^\[0:\d\d\] poll #1 /m);
    expect(run.stdout).toMatch(/^ {2}posted +[+-]\d+\.\d% +th_\w+ +c\/\w+ +"(Bullish|Bearish) on c\//m);
    expect(run.stdout).toMatch(/^ {2}skipped +th_\w+ +c\/\w+ +locked$/m);
    expect(run.stdout).toMatch(/^\[0:\d\d\] scored /m);

    const posted = Number(/^ {2}posted +(\d+) prediction\(s\); the service counts (\d+)/m.exec(run.stdout)?.[1]);
    const counted = Number(/^ {2}posted +(\d+) prediction\(s\); the service counts (\d+)/m.exec(run.stdout)?.[2]);
    expect(posted).toBeGreaterThan(0);
    expect(counted).toBe(posted);
    const result = /^ {2}result +honey (\d+), wax (\d+)/m.exec(run.stdout);
    expect(result).not.toBeNull();
    expect(Number(result![1]) + Number(result![2])).toBeGreaterThan(0);
    // The agent's own record, from the prices it read, next to the sandbox's score.
    expect(run.stdout).toMatch(/^ {2}record +the agent's own, from the prices it read: \d+ resolved/m);
    await expectNothingLeft(run.stdout);
  }, 40_000);

  it('cleans up on Ctrl-C', async () => {
    let sent = false;
    const run = await runDemo({ DEMO_SECONDS: '60' }, (stdout, kill) => {
      if (!sent && /^\[0:\d\d\] poll #1 /m.test(stdout)) {
        sent = true;
        kill('SIGINT');
      }
    });
    expect(sent).toBe(true);
    expect(run.code).toBe(130);
    expect(run.stdout).toMatch(/^Interrupted \(SIGINT\): cleaning up/m);
    expect(run.stdout).not.toMatch(/^Summary/m);
    await expectNothingLeft(run.stdout);
  }, 30_000);

  // Root removes anything, so the dir is kept by a file made immutable (chattr +i) while the demo runs.
  const canPin = process.getuid?.() === 0 && spawnSync('chattr', ['--help']).error === undefined;
  it.skipIf(!canPin)(
    'says which dir it could not remove, without a stack trace',
    async () => {
      let pinned: string | undefined;
      const run = await runDemo({ DEMO_SECONDS: '60' }, (stdout, kill) => {
        const tmp = /^Temporary dir: (\S+)/m.exec(stdout)?.[1];
        if (!pinned && tmp && /^\[0:\d\d\] poll #1 /m.test(stdout)) {
          pinned = path.join(tmp, 'pinned');
          fs.writeFileSync(pinned, '');
          execFileSync('chattr', ['+i', pinned]);
          kill('SIGINT');
        }
      });
      try {
        expect(pinned).toBeDefined();
        expect(run.stderr).toContain(`could not remove ${path.dirname(pinned!)}`);
        expect(run.stderr).not.toMatch(/^\s+at /m);
        expect(run.stdout).not.toMatch(/nothing is left behind/);
        expect(run.code).toBe(1);
      } finally {
        if (pinned) {
          execFileSync('chattr', ['-i', pinned]);
          fs.rmSync(path.dirname(pinned), { recursive: true, force: true });
        }
      }
    },
    30_000,
  );
});
