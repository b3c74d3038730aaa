import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import { BIN, TEST_BIN, type World } from './harness.js';

/**
 * The built command as a process a test can signal, stop and talk to while it runs: off a terminal (as
 * cron or systemd runs it), or at one through `script`, which gives it a pty as a person's terminal would
 * (the spinner runs, questions are asked, and script's exit status is the agent's).
 */
export interface LiveProcess {
  child: ChildProcess;
  /** The agent's own pid: at a terminal, `script` stands between the test and the agent. */
  pid(): number;
  ended: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** stdout and stderr as they came. */
  output(): string;
  stdout(): string;
  /** Typed at the terminal (or written to stdin off one). */
  type(text: string): void;
}

export const SCRIPT = ['/usr/bin/script', '/bin/script'].find((file) => fs.existsSync(file));

const quote = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;

export function startAgent(
  w: World,
  args: string[],
  options: { terminal?: boolean; env?: Record<string, string> } = {},
): LiveProcess {
  const hooked = Object.keys(options.env ?? {}).some((name) => name.startsWith('AGENT_TEST_'));
  const command = [process.execPath, hooked ? TEST_BIN : BIN, '--config-dir', w.configDir, ...args];
  const env = { HOME: w.home, PATH: process.env.PATH ?? '/usr/bin:/bin', TERM: 'xterm', ...options.env };
  const child = options.terminal
    ? spawn(SCRIPT!, ['-qfec', `stty cols 80; exec ${command.map(quote).join(' ')}`, '/dev/null'], {
        env,
        stdio: ['pipe', 'pipe', 'pipe'],
      })
    : spawn(command[0]!, command.slice(1), { env, stdio: ['pipe', 'pipe', 'pipe'] });
  let output = '';
  let stdout = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk;
    stdout += chunk;
  });
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  return {
    child,
    pid: () => (options.terminal ? childOf(child.pid!) : child.pid!),
    ended,
    output: () => output,
    stdout: () => stdout,
    type: (text) => void child.stdin!.write(text),
  };
}

/** The one child of a process (the agent that `script` runs), read from /proc. */
function childOf(pid: number): number {
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (Number(/\) \S (\d+)/.exec(stat)?.[1]) === pid) return Number(entry);
    } catch {
      // gone meanwhile
    }
  }
  throw new Error(`process ${pid} has no child`);
}

export async function until(what: string, condition: () => boolean, timeoutMs = 15_000): Promise<void> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > timeoutMs) throw new Error(`not in time: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Sets a file's modification time this many minutes back, as if it had been written then. */
export function age(file: string, minutes: number): void {
  const then = new Date(Date.now() - minutes * 60_000);
  fs.utimesSync(file, then, then);
}
