import { spawn, type ChildProcess } from 'node:child_process';
import { lineSplitter } from './lines.js';
import { canFindTagged, killTagged, newRunTag, RUN_TAG_VARIABLE } from './run-tag.js';

// Runs one analyzer process to the end, whatever it does: answers, hangs, ignores SIGTERM, floods, or
// leaves children behind. On POSIX the child leads a process group of its own (spawn's `detached`),
// so a timeout reaches a shell script's grandchildren too, and whatever is left in that group when the
// child exits is killed. A descendant that left the group (setsid, a daemon) is found on Linux by the
// run's tag in its environment (run-tag.ts) and killed too. Out of reach: one that leaves the group and
// clears its environment or runs as another user, and on macOS any that leaves the group; only a cgroup
// would hold those, and a cron job cannot count on having one. docs/alerts.md and examples/README.md
// promise no more. Windows has no process groups (and `detached` would open a console window): the
// child alone is killed there.

const POSIX = process.platform !== 'win32';
/** Descendants that left the group (setsid) are found by a variable in their environment: Linux. */
const TAGGED = POSIX && canFindTagged();

export type StopReason = 'timeout' | 'output-cap' | 'closed';

export type RunResult =
  | { kind: 'not-started'; code: string }
  | { kind: 'stopped'; why: StopReason }
  | { kind: 'exited'; code: number | null; signal: NodeJS.Signals | null; stdout: string; stderrLine: string };

export interface RunOptions {
  argv: readonly [string, ...string[]];
  input: string;
  env: Record<string, string>;
  cwd?: string;
  timeoutMs: number;
  maxOutputBytes: number;
  /** How long a process has after SIGTERM before SIGKILL, and after exit for its pipes to close. */
  killGraceMs: number;
  onStderrLine(line: string): void;
}

export interface RunningProcess {
  readonly result: Promise<RunResult>;
  /** Ends the process early (the analyzer is being closed); `result` settles once it is gone. */
  stop(why: StopReason): void;
}

export function startProcess(options: RunOptions): RunningProcess {
  const [program, ...args] = options.argv;
  const tag = TAGGED ? newRunTag() : undefined;
  let child: ChildProcess;
  try {
    child = spawn(program, args, {
      shell: false,
      detached: POSIX,
      windowsHide: true,
      stdio: 'pipe',
      env: tag === undefined ? options.env : { ...options.env, [RUN_TAG_VARIABLE]: tag },
      ...(options.cwd !== undefined ? { cwd: options.cwd } : {}),
    });
  } catch (error) {
    return { result: Promise.resolve({ kind: 'not-started', code: codeOf(error) }), stop: () => undefined };
  }
  const { pid } = child;
  let stop: (why: StopReason) => void = () => undefined;
  const result = new Promise<RunResult>((resolve) => {
    let stopped: StopReason | undefined;
    let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    let settled = false;
    const timers: NodeJS.Timeout[] = [];
    const stdout: Buffer[] = [];
    let stdoutBytes = 0;
    const stderr = lineSplitter(options.onStderrLine);

    const signal = (name: NodeJS.Signals) => {
      // The child may have left its group (setsid), so it is signalled by pid as well.
      if (POSIX && pid !== undefined) ignoreFailure(() => process.kill(-pid, name));
      if (child.exitCode === null && child.signalCode === null) ignoreFailure(() => child.kill(name));
    };
    const finish = (value: RunResult) => {
      if (settled) return;
      settled = true;
      for (const timer of timers) clearTimeout(timer);
      for (const stream of [child.stdin, child.stdout, child.stderr]) stream?.destroy();
      // Only a process that survived SIGKILL is still referenced here; it must not keep us alive.
      child.unref();
      resolve(value);
    };
    const done = () => {
      if (exit === undefined) return;
      stderr.end();
      if (stopped !== undefined) finish({ kind: 'stopped', why: stopped });
      else
        finish({
          kind: 'exited',
          ...exit,
          stdout: Buffer.concat(stdout).toString('utf8'),
          stderrLine: stderr.telling(),
        });
    };
    stop = (why) => {
      if (stopped !== undefined || exit !== undefined || settled) return;
      stopped = why;
      signal('SIGTERM');
      timers.push(
        setTimeout(() => {
          signal('SIGKILL');
          // A process in uninterruptible sleep can outlive even SIGKILL for a while: give up waiting.
          timers.push(setTimeout(() => finish({ kind: 'stopped', why }), options.killGraceMs));
        }, options.killGraceMs),
      );
    };

    child.on('error', (error) => {
      if (child.pid === undefined) finish({ kind: 'not-started', code: codeOf(error) });
      // Any later error is a failed kill of a process already gone: exit or the timers settle the run.
    });
    child.on('exit', (code, signalName) => {
      exit = { code, signal: signalName };
      if (POSIX && pid !== undefined) ignoreFailure(() => process.kill(-pid, 'SIGKILL'));
      if (tag !== undefined) killTagged(tag);
      // A process outside the group may still hold the pipes open: do not wait for it forever.
      timers.push(setTimeout(done, options.killGraceMs));
    });
    child.on('close', done);

    child.stdout?.on('data', (chunk: Buffer) => {
      if (stopped !== undefined) return;
      stdoutBytes += chunk.length;
      if (stdoutBytes > options.maxOutputBytes) {
        stdout.length = 0;
        stop('output-cap');
        child.stdout?.destroy();
      } else {
        stdout.push(chunk);
      }
    });
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (text: string) => stderr.push(text));
    // A child that exits without reading its input breaks the pipe (EPIPE): that is its right. A pipe
    // error on the way back ends in 'close' like any other end, so none of them may throw.
    for (const stream of [child.stdin, child.stdout, child.stderr]) stream?.on('error', () => undefined);
    child.stdin?.end(options.input);
    timers.push(setTimeout(() => stop('timeout'), options.timeoutMs));
  });
  return { result, stop: (why) => stop(why) };
}

function codeOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : 'unknown error';
}

function ignoreFailure(action: () => void): void {
  try {
    action();
  } catch {
    // ESRCH: nothing left to signal.
  }
}
