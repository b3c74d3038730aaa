import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach } from 'vitest';

export const FIXTURES = fileURLToPath(new URL('../../fixtures/analyzers/', import.meta.url));

/** A command line that parseCommandLine turns back into exactly these arguments. */
export function commandLine(...argv: string[]): string {
  return argv.map((arg) => `'${arg.replaceAll("'", `'\\''`)}'`).join(' ');
}

/** Runs a fixture script with this very Node, as a user would write `node script.mjs`. */
export function fixture(name: string, ...args: string[]): string {
  return commandLine(process.execPath, path.join(FIXTURES, name), ...args);
}

/** A fresh temp dir per test, removed afterwards. */
export function useTempDir(): () => string {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });
  return () => (dir ??= mkdtempSync(path.join(tmpdir(), 'agent-command-')));
}

/** Running, as opposed to gone or a zombie waiting for a parent that will never reap it. */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false;
    throw error;
  }
  try {
    // /proc/<pid>/stat: "pid (comm) S …"; comm may hold spaces and parentheses, the state follows the last ")".
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return process.platform !== 'linux';
  }
}

/** Polls, with a limit generous enough for a loaded 2-core machine, until the process is gone. */
export async function waitUntilGone(pid: number, limitMs = 10_000): Promise<boolean> {
  const deadline = Date.now() + limitMs;
  while (isRunning(pid)) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return true;
}

/**
 * The pid a fixture wrote, read once the analysis has settled: none if the timeout killed the fixture
 * before its first statement ran (Node can start slowly on a loaded machine).
 */
export function pidIfWritten(file: string): number | undefined {
  try {
    const pid = Number(readFileSync(file, 'utf8'));
    return pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** Resolves once `lines` holds the line, polling: a fixture says "ready" when it is set up. */
export async function untilSaid(lines: readonly string[], line: string, limitMs = 10_000): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!lines.includes(line)) {
    if (Date.now() > deadline) throw new Error(`never said ${JSON.stringify(line)}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** The pid a fixture wrote to a file, waiting for it to be written. */
export async function readPid(file: string, limitMs = 10_000): Promise<number> {
  const deadline = Date.now() + limitMs;
  for (;;) {
    try {
      const pid = Number(readFileSync(file, 'utf8'));
      if (pid > 0) return pid;
    } catch {
      // not written yet
    }
    if (Date.now() > deadline) throw new Error(`no pid in ${file}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
