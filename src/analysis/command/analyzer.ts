import { TERM_GRACE_MS } from '../../domain/budget.js';
import { AnalyzerError, UsageError } from '../../errors.js';
import { oneLine } from '../../output/sanitize.js';
import { analyzerInput, parseAnswerText } from '../protocol.js';
import { signed } from '../text-clean.js';
import type { Analyzer, AnalyzerOutput } from '../types.js';
import { childEnvironment, redact } from './child-env.js';
import { parseCommandLine } from './command-line.js';
import { startProcess, type RunningProcess, type RunResult } from './start-process.js';

// The user's own analyzer (examples/README.md): a program run without a shell for each thread,
// given the protocol's input on stdin, answering on the last line of stdout. Only an exit status of 0
// with a valid answer counts; everything else is an AnalyzerError, so the thread stays due.

export interface CommandAnalyzerOptions {
  /** `analyzer.command`, split by parseCommandLine. */
  commandLine: string;
  timeoutMs: number;
  /** The environment to pass on, minus AGENT_LLM_API_KEY and anything holding a secret. */
  env: Readonly<Record<string, string | undefined>>;
  /** Keys the command must never see (the service key): variables holding them are removed. */
  secrets: readonly string[];
  /** Each line the command writes to stderr, sanitised to one line (shown under --verbose). */
  onStderr?: (line: string, threadId: string) => void;
  /** Stdout beyond this is a failure (default 1 MiB). */
  maxOutputBytes?: number;
  cwd?: string;
  /** For the duration in the trace (default performance.now). */
  now?: () => number;
  /** Between SIGTERM and SIGKILL (default 1 s). */
  killGraceMs?: number;
  /**
   * Quote the stderr line that says what went wrong (lines.ts) in a failure's message (default true). Off
   * under cron without --verbose: a user's script may print its own secrets there, and the issue promises
   * stderr only under --verbose.
   */
  stderrInErrors?: boolean;
}

const WHO = 'the analyzer command';
const DEFAULT_MAX_OUTPUT = 1024 * 1024;
/** A chatty script must not bury the rest of a --verbose run. */
const STDERR_LINES_SHOWN = 100;
const STDERR_LINE_MAX = 300;
const LAST_STDERR_MAX = 200;

/** Checks the command line at once (a UsageError), then runs it once per thread. */
export function createCommandAnalyzer(options: CommandAnalyzerOptions): Analyzer {
  const argv = parseCommandLine(options.commandLine);
  if (!(options.timeoutMs > 0 && Number.isFinite(options.timeoutMs))) {
    throw new UsageError(`the analyzer timeout must be a positive number of seconds, not ${options.timeoutMs / 1000}`);
  }
  const maxOutputBytes = options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT;
  if (!(maxOutputBytes > 0 && Number.isFinite(maxOutputBytes))) {
    throw new UsageError(`the analyzer output cap must be a positive number of bytes, not ${maxOutputBytes}`);
  }
  const env = childEnvironment(options.env, options.secrets);
  const now = options.now ?? (() => performance.now());
  const program = oneLine(redact(argv[0], options.secrets), 80);
  const running = new Set<RunningProcess>();

  return {
    name: 'command',
    async analyze(thread, profile, trace) {
      const started = now();
      let shown = 0;
      const run = startProcess({
        argv,
        input: `${JSON.stringify(analyzerInput(thread, profile))}\n`,
        env,
        ...(options.cwd !== undefined ? { cwd: options.cwd } : {}),
        timeoutMs: options.timeoutMs,
        maxOutputBytes,
        killGraceMs: options.killGraceMs ?? TERM_GRACE_MS,
        onStderrLine(line) {
          shown += 1;
          if (shown <= STDERR_LINES_SHOWN)
            options.onStderr?.(oneLine(redact(line, options.secrets), STDERR_LINE_MAX), thread.id);
          else if (shown === STDERR_LINES_SHOWN + 1) options.onStderr?.(`… more lines on stderr not shown`, thread.id);
        },
      });
      running.add(run);
      const result = await run.result.finally(() => running.delete(run));
      const ran = `command: ran ${program} (${Math.round(now() - started)} ms)`;
      try {
        const output = interpret(result, {
          program,
          timeoutMs: options.timeoutMs,
          maxOutputBytes,
          secrets: options.secrets,
          stderrInErrors: options.stderrInErrors ?? true,
        });
        trace.push(`${ran}, answered ${describe(output)}`);
        return output;
      } catch (error) {
        trace.push(`${ran}, no answer`);
        throw error;
      }
    },
    async close() {
      for (const run of running) run.stop('closed');
      await Promise.all([...running].map((run) => run.result));
    },
  };
}

interface Context {
  stderrInErrors: boolean;
  program: string;
  timeoutMs: number;
  maxOutputBytes: number;
  secrets: readonly string[];
}

function interpret(result: RunResult, context: Context): AnalyzerOutput {
  if (result.kind === 'not-started') throw notStarted(result.code, context.program);
  if (result.kind === 'stopped') throw stopped(result.why, context);
  const stderr =
    result.stderrLine === ''
      ? ''
      : context.stderrInErrors
        ? ` (stderr: ${oneLine(redact(result.stderrLine, context.secrets), LAST_STDERR_MAX)})`
        : ' (its stderr is shown with --verbose)';
  if (result.signal !== null) throw new AnalyzerError(`${WHO} was killed by ${result.signal}${stderr}`);
  if (result.code !== 0) throw new AnalyzerError(`${WHO} exited with code ${result.code}${stderr}`);
  return parseAnswerText(redact(result.stdout, context.secrets), WHO);
}

function notStarted(code: string, program: string): AnalyzerError {
  if (code === 'ENOENT') {
    return new AnalyzerError(`${WHO} was not found: ${program}`, {
      hint: 'give the program by its full path or make sure it is on PATH, e.g. agent config set analyzer.command "node /abs/path/analyzer.mjs"',
    });
  }
  if (code === 'EACCES' || code === 'EPERM') {
    return new AnalyzerError(`${WHO} is not executable: ${program}`, {
      hint: 'make it executable (chmod +x) or run it through its interpreter, e.g. "node analyzer.mjs"',
    });
  }
  return new AnalyzerError(`${WHO} could not be started (${code}): ${program}`);
}

function stopped(why: 'timeout' | 'output-cap' | 'closed', context: Context): AnalyzerError {
  if (why === 'timeout') {
    return new AnalyzerError(`${WHO} timed out after ${seconds(context.timeoutMs)} s`, {
      hint: 'a slow analyzer can be given more time: agent config set analyzer.timeout <seconds>',
    });
  }
  if (why === 'output-cap') {
    return new AnalyzerError(`${WHO} printed more than ${bytes(context.maxOutputBytes)} on stdout and was stopped`, {
      hint: 'an analyzer prints one JSON answer as its last line of stdout; chatter belongs on stderr',
    });
  }
  return new AnalyzerError(`${WHO} was stopped because the agent is shutting down`);
}

function describe(output: AnalyzerOutput): string {
  if (output.kind === 'signal')
    return `a signal (strength ${signed(output.strength)}, ${output.evidence.length} phrase(s) of evidence)`;
  return output.action === 'post' ? `a decision (post ${signed(output.conviction, 1)})` : 'a decision (skip)';
}

function seconds(ms: number): string {
  return String(Math.round(ms / 100) / 10 || ms / 1000);
}

function bytes(n: number): string {
  if (n >= 1024 * 1024 && n % (1024 * 1024) === 0) return `${n / (1024 * 1024)} MiB`;
  if (n >= 1024 && n % 1024 === 0) return `${n / 1024} KiB`;
  return `${n} bytes`;
}
