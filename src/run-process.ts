import { closeSync, openSync, readSync, realpathSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { runCli } from './cli.js';
import type { RunProgram, WatchLimits } from './context.js';
import type { Timing } from './domain/clock.js';
import { aheadTiming, fastForwardTiming, realTiming } from './domain/clock.js';
import { UsageError } from './errors.js';
import { stdio } from './output/stdio.js';
import { lazyTransport } from './http/lazy-transport.js';
import type { Transport } from './http/transport.js';

import { userNameFromPasswd } from './state/user-names.js';

/**
 * What a test build may change in the process it runs (the shipped command never sets any): where
 * fault-injection tests kill the run, a clock whose waits pass at once, a shorter request timeout, the
 * process table doctor reads.
 */
export interface TestHooks {
  crashPoint?: (point: string) => void;
  fastForward?: boolean;
  /** The clock reads this far ahead of the real one. */
  clockAheadMs?: number;
  requestTimeoutMs?: number;
  watchLimits?: WatchLimits;
  proc?: string;
}

// The only place that touches process globals: argv, env, streams, clock and the exit code.
export async function runProcess(hooks: TestHooks = {}): Promise<void> {
  let transport: Transport | undefined;
  const code = await runCli({
    interrupted: () => interruptedBy,
    argv: process.argv.slice(2),
    env: process.env,
    // Node's own stdout/stderr streams are built only on a terminal, or when a pipe pushes back.
    stdout: stdio(
      1,
      () => process.stdout,
      (error) => outputFailed('standard output', error),
    ),
    stderr: stdio(
      2,
      () => process.stderr,
      () => outputFailed('standard error'),
    ),
    version: process.env.AGENT_BUILD_VERSION ?? '0.0.0',
    about: () => ({
      node: process.versions.node,
      platform: `${process.platform}-${process.arch}`,
      build: buildId(),
      installPath: dirname(dirname(scriptPath(process.argv[1]))),
    }),
    // env-paths loads node:os and asks for the home and temp dirs as it loads: only when the default is used.
    defaultConfigDir: async () => (await import('env-paths')).default('prediction-agent', { suffix: '' }).config,
    // Asked only when needed: reading process.stdin builds a stream and loads a dozen modules.
    prompt: { available: () => process.stdin.isTTY === true && process.stderr.isTTY === true, ask },
    context: (base) => ({
      ...base,
      pid: process.pid,
      user: process.getuid ? { uid: process.getuid(), nameOf: userNameFromPasswd } : undefined,
      self: { node: process.execPath, script: scriptPath(process.argv[1]), version: process.versions.node, isAlive },
      runProgram,
      timing: ahead(hooks.fastForward ? fastForwardTiming() : realTiming, hooks.clockAheadMs),
      transport: () => (transport ??= lazyTransport(process.env)),
      requestTimeoutMs: hooks.requestTimeoutMs,
      watchLimits: hooks.watchLimits,
      proc: hooks.proc,
      crashPoint: hooks.crashPoint,
      readStdin,
      onInterrupt,
      tuneForBatch,
      untilSignal,
    }),
  });
  // No transport.close(): the kept-alive sockets left are unref'd by Node's agent, so they do not hold the
  // process, and destroying them costs ~1 ms of every run (net's destroy builds process.stderr).
  // The signal is raised again once the analyzer has stopped; should the run end first, its code says the same.
  process.exitCode = interruptedBy ? 128 + (interruptedBy === 'SIGTERM' ? 15 : 2) : outputLost && code === 0 ? 1 : code;
}

function ahead(timing: Timing, ms: number | undefined): Timing {
  return ms ? aheadTiming(timing, ms) : timing;
}

/** Set when stdout or stderr could not be written: the run's output is lost, so it has not succeeded. */
let outputLost = false;

/**
 * A poll that found new threads works for a second or so and exits. Over 500 threads (`npm run bench`,
 * Node 20) V8's optimising compiler cost ~6 MB of peak memory on its background threads and saved no
 * time, and the young generation doubled twice for garbage that dies young anyway. A run after a long gap
 * walks page after page (10,000 threads): V8's default heap growth let garbage from the pages pile up to a
 * ~100 MB peak, ~70 MB when tuned for size, in the same time. With all three the 500-thread run peaks at
 * ~58 MB instead of ~66 MB (docs/performance.md). Not before the first page: a flag set at run time makes Node
 * compile every built-in module it loads afterwards from source instead of from its code cache (+7 ms for
 * node:http), and a run that finds nothing new (or the build's code cache warm-up, which is one) must not
 * pay that or record the changed flags.
 */
async function tuneForBatch(): Promise<void> {
  const { setFlagsFromString } = await import('node:v8');
  setFlagsFromString('--no-turbofan');
  setFlagsFromString('--semi-space-growth-factor=1');
  setFlagsFromString('--optimize-for-size');
}

// One line on stderr (unless stderr itself failed) and a failed exit: the run's own output is lost.
function outputFailed(what: string, error?: NodeJS.ErrnoException): void {
  outputLost = true;
  if (error) {
    try {
      writeSync(2, `agent: cannot write to ${what} (${error.code ?? error.message})\n`);
    } catch {
      // stderr is gone too: the exit status is all that is left
    }
  }
  process.exitCode = 1;
}

let interruptedBy: NodeJS.Signals | undefined;

function onInterrupt(stop: () => Promise<void>): () => void {
  const handler = (signal: NodeJS.Signals) => {
    interruptedBy ??= signal;
    undo();
    // A second Ctrl-C while the analyzer is being stopped must not kill the agent before it has: the
    // analyzer's process group is out of the terminal's reach.
    const wait = () => undefined;
    process.on('SIGINT', wait);
    process.on('SIGTERM', wait);
    void stop().finally(() => {
      process.off('SIGINT', wait);
      process.off('SIGTERM', wait);
      // Then the signal's own ending (exit status 128 + n), as if nothing had been listening.
      process.kill(process.pid, signal);
    });
  };
  const undo = () => {
    process.off('SIGINT', handler);
    process.off('SIGTERM', handler);
  };
  process.once('SIGINT', handler);
  process.once('SIGTERM', handler);
  return undo;
}

/**
 * The first SIGINT or SIGTERM is the command's to act on (a watcher finishes the thread in hand); a second
 * one ends the process as the signal would. Listening until then also keeps a library's exit hook (ora's
 * signal-exit, at a terminal) from ending the process at the first signal: that hook re-raises a signal
 * that finds no listener but its own, and a listener that went away after the first (`once`) left it so.
 */
function untilSignal(): Promise<string> {
  return new Promise((resolve) => {
    const again = (signal: NodeJS.Signals) => {
      process.off('SIGINT', again);
      process.off('SIGTERM', again);
      process.kill(process.pid, signal);
    };
    const first = (signal: NodeJS.Signals) => {
      process.off('SIGINT', first);
      process.off('SIGTERM', first);
      process.on('SIGINT', again);
      process.on('SIGTERM', again);
      resolve(signal);
    };
    process.on('SIGINT', first);
    process.on('SIGTERM', first);
  });
}

async function readStdin(maxBytes: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of process.stdin as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) throw new UsageError(`standard input is larger than ${maxBytes} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

async function ask(question: string): Promise<string> {
  const { askLine } = await import('./output/ask.js');
  return askLine(question, process.stdin, process.stderr);
}

/** The id on the running bundle's first line (scripts/build.mjs), read only for `--version -v`/`--json`. */
function buildId(): string | null {
  if (typeof __filename !== 'string') return null;
  let fd: number | undefined;
  try {
    fd = openSync(__filename, 'r');
    const head = Buffer.alloc(64);
    const read = readSync(fd, head, 0, head.length, 0);
    return /^\/\*build:([0-9a-f]+)\*\//.exec(head.toString('latin1', 0, read))?.[1] ?? null;
  } catch {
    return null;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

// The script as a scheduler must name it: an npm install runs it through a symlink in its bin directory.
function scriptPath(argv1: string | undefined): string {
  if (!argv1) return '';
  try {
    return realpathSync(argv1);
  } catch {
    return argv1;
  }
}

const runProgram: RunProgram = async (file, args, input) => {
  const { spawnSync } = await import('node:child_process');
  const done = spawnSync(file, args, { input, encoding: 'utf8', timeout: 30_000 });
  const code = (done.error as NodeJS.ErrnoException | undefined)?.code;
  return { status: done.status, stdout: done.stdout ?? '', stderr: done.stderr ?? '', missing: code === 'ENOENT' };
};

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
