import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { BIN } from './harness.js';

// `script` gives the agent a terminal (a pty), as a person has: questions are asked, and keys typed reach
// them as a person's would (Ctrl-C as a key at a question).
export const SCRIPT = ['/usr/bin/script', '/bin/script'].find((file) => fs.existsSync(file));

const quote = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;

export interface TerminalRun {
  /** Everything shown on the terminal so far, escape sequences removed, line ends as \n. */
  shown(): string;
  /** Resolves once the screen shows `pattern` after `from` characters of it (default: anywhere). */
  waitFor(pattern: RegExp | string, from?: number): Promise<void>;
  /** Types text (end a line with \r, as Enter does). */
  type(text: string): void;
  exited: Promise<number | null>;
}

const running = new Set<() => void>();

/** Ends every terminal run still going (for afterEach: a failed test leaves no process waiting for keys). */
export function stopTerminals(): void {
  for (const stop of running) stop();
  running.clear();
}

/** Runs bin/agent.cjs with `args` at a terminal, with HOME and PATH only (plus `env`). */
export function atTerminal(args: string[], home: string, env: Record<string, string> = {}): TerminalRun {
  const command = [process.execPath, BIN, ...args].map(quote).join(' ');
  const child = spawn(SCRIPT!, ['-qfec', `stty cols 200; exec ${command}`, '/dev/null'], {
    env: { HOME: home, PATH: process.env.PATH ?? '/usr/bin:/bin', TERM: 'xterm', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let raw = '';
  const listeners = new Set<() => void>();
  const take = (chunk: string) => {
    raw += chunk;
    for (const listener of listeners) listener();
  };
  child.stdout!.setEncoding('utf8').on('data', take);
  child.stderr!.setEncoding('utf8').on('data', take);
  const shown = () => raw.replace(/\u001b\[[0-?]*[ -/]*[@-~]/g, '').replace(/\r+\n/g, '\n');
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const stop = () => child.kill('SIGKILL');
  running.add(stop);
  void exited.then(() => running.delete(stop));
  return {
    shown,
    waitFor(pattern, from = 0) {
      const found = () =>
        typeof pattern === 'string' ? shown().slice(from).includes(pattern) : pattern.test(shown().slice(from));
      return new Promise((resolve, reject) => {
        const fail = (why: string) => {
          clearTimeout(timer);
          listeners.delete(check);
          reject(new Error(`${why}: ${pattern}\n--- screen ---\n${shown()}`));
        };
        const timer = setTimeout(() => fail('not shown within 15 s'), 15_000);
        const check = () => {
          if (!found()) return false;
          clearTimeout(timer);
          listeners.delete(check);
          resolve();
          return true;
        };
        listeners.add(check);
        // The last output may arrive just after the exit.
        void exited.then(() => setTimeout(() => check() || fail('the command ended without showing'), 100));
        check();
      });
    },
    type: (text) => child.stdin!.write(text),
    exited,
  };
}
