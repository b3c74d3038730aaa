import type { Timing } from './domain/clock.js';
import type { Transport } from './http/transport.js';
import type { Output } from './output/output.js';
import type { RunningUser } from './state/owner.js';

/**
 * Everything a command needs from the outside world, built once at the entry point and passed in, so
 * tests need no global patching. Commands never read process.env, process.argv or the clock themselves.
 */
export interface Context {
  output: Output;
  /** The environment the analyzers read their overrides from (docs/cli.md) and an external command inherits. */
  env: Record<string, string | undefined>;
  configDir: string;
  /** The config dir when none is chosen (env-paths'): where `agent list` looks for agents. */
  defaultConfigDir?: () => Promise<string>;
  /** The config dir was chosen (--config-dir, AGENT_CONFIG_DIR), not the default: hints then name it. */
  configDirGiven?: boolean;
  /** The config dir came from `--agent <name>`: hints then name the agent, not the long path. */
  agentName?: string;
  /** --base-url or AGENT_BASE_URL, if given. */
  baseUrl: string | undefined;
  timing: Timing;
  pid: number;
  /** Created on first use: a command that fails validation never opens a socket. */
  transport(): Transport;
  /** The request timeout; tests shorten it. */
  requestTimeoutMs?: number;
  /** Questions for a person at a terminal (register); `available` is false without one, or with --json. */
  prompt?: Prompt;
  /** All of standard input as text, refused beyond `maxBytes` (`analyze --stdin`). */
  readStdin?: (maxBytes: number) => Promise<string>;
  /**
   * Runs `stop` on SIGINT or SIGTERM, then lets the signal end the process as usual; returns the undo.
   * An external analyzer runs in its own process group, which a Ctrl-C at the terminal does not reach.
   */
  onInterrupt?: (stop: () => Promise<void>) => () => void;
  /**
   * A watcher's stop (its first SIGINT or SIGTERM): a wait inside a cycle for a 429's pause or a retry
   * ends at once, with nothing sent after it.
   */
  stopSignal?: AbortSignal;
  /** Resolves with the signal's name on SIGINT or SIGTERM (for the long-running `sandbox`). */
  untilSignal?: () => Promise<string>;
  /**
   * Called once a poll's first page shows new threads, before it works through them and exits: trades
   * the peak speed a long-lived process would want for less memory (main.ts). Absent in tests.
   */
  tuneForBatch?: () => Promise<void>;
  /**
   * This program as a scheduler must start it (the node binary and the script running now), the Node
   * version, and whether a pid is a live process.
   */
  self?: { node: string; script: string; version: string; isAlive: (pid: number) => boolean };
  /** Runs another program to its end (crontab, systemctl); `missing` when there is no such program. */
  runProgram?: RunProgram;
  /** Who this runs as; undefined where the platform has no uids. The config dir must be theirs. */
  user?: RunningUser;
  /** `poll --watch`'s shortest interval and longest cycle (poll/watch-limits.ts); only the test build lowers them. */
  watchLimits?: WatchLimits;
  /** Where the process table is read (Linux's /proc, the default); only the test build points it elsewhere. */
  proc?: string;
  /** Set by the test build only (test/support/test-entry.ts): fault-injection tests kill the run here. */
  crashPoint?: (point: CrashPoint) => void;
}

export interface WatchLimits {
  /** The shortest `--interval` a person may ask for. */
  minIntervalS: number;
  /** How long a cycle may take: a watcher that has not begun one an interval plus this after the last is overdue. */
  cycleMs: number;
  /** How long after a stop signal the analyzer in hand may still work before it is stopped. */
  stopGraceMs: number;
}

export type RunProgram = (
  file: string,
  args: string[],
  input?: string,
) => Promise<{ status: number | null; stdout: string; stderr: string; missing: boolean }>;

/** The instants of a run where a crash is most likely to lose or double something (docs/guarantees.md). */
export type CrashPoint = 'before-post' | 'after-post' | 'before-rename';

export interface Prompt {
  available(): boolean;
  ask(question: string): Promise<string>;
}
