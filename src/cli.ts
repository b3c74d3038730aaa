import { Command, CommanderError } from 'commander';
import { agentDir } from './domain/agent-name.js';
import { userPath } from './domain/home-path.js';
import type { Context, Prompt } from './context.js';
import { COMMANDS } from './commands/index.js';
import { overview } from './commands/overview.js';
import type { About } from './commands/version.js';
import { routeOutput, usageError, type Action } from './commands/wiring.js';
import { CancelledError, EXIT, type ExitCode, UsageError } from './errors.js';
import type { AgentPlace } from './output/command-hint.js';
import { Output, type WritableLike } from './output/output.js';
import { reportError } from './output/report-error.js';

/** What the entry point hands over; everything else is derived from it here, once. */
export interface CliDeps {
  argv: string[];
  env: Record<string, string | undefined>;
  stdout: WritableLike;
  stderr: WritableLike;
  version: string;
  /** Loaded only when asked: a run given --config-dir (or --version) never needs it. */
  defaultConfigDir: () => Promise<string>;
  /** Builds the command context once the global options are known. */
  context: (base: Omit<Context, 'transport' | 'timing' | 'pid'>) => Context;
  /** Questions for a person at a terminal. */
  prompt?: Prompt;
  /** The signal that interrupted the run, if one did (run-process.ts's interrupt handler). */
  interrupted?: () => string | undefined;
  /** For `--version -v` and `--version --json` only. */
  about?: () => About;
}

interface GlobalOptions {
  baseUrl?: string;
  configDir?: string;
  agent?: string;
  json?: boolean;
  quiet?: boolean;
  verbose?: boolean;
}

/**
 * The config dir, absolute (cron runs in another directory, and every message names it) with a leading `~`
 * expanded. An empty value is no value: AGENT_CONFIG_DIR="" once made "" the config dir.
 */
async function configDirOf(globals: GlobalOptions, deps: CliDeps): Promise<string> {
  if (globals.agent !== undefined) {
    // Two ways of naming the dir would leave one silently unused: the agent acted on must be the one meant.
    const other = globals.configDir ? '--config-dir' : deps.env.AGENT_CONFIG_DIR ? 'AGENT_CONFIG_DIR' : undefined;
    if (other)
      throw new UsageError(`--agent and ${other} cannot go together: each names a config dir`, {
        hint: `give one of them${other === 'AGENT_CONFIG_DIR' ? ' (unset AGENT_CONFIG_DIR to use --agent)' : ''}; --agent <name> is short for --config-dir <default config dir>/agents/<name>`,
      });
    return agentDir(await deps.defaultConfigDir(), globals.agent);
  }
  const given = globals.configDir || deps.env.AGENT_CONFIG_DIR;
  return given ? userPath(given, deps.env.HOME) : deps.defaultConfigDir();
}

/**
 * The commander program: every command, with the global options. What runs is `action`'s; `npm run docs`
 * gives one that runs nothing, to write the command reference from the program itself.
 */
export function createProgram(version: string, action: Action): Command {
  const program = new Command('agent')
    .description('Polling agent for the agent prediction service: register once, poll from cron, predict by hand.')
    .version(version, '-V, --version')
    .option('--base-url <url>', 'the service address (env AGENT_BASE_URL); stored at registration')
    .option('--config-dir <dir>', 'where the state lives (env AGENT_CONFIG_DIR)')
    .option('--agent <name>', 'the agent of that name: config dir <default config dir>/agents/<name>')
    .option('--json', 'print exactly one JSON document on stdout')
    .option('-q, --quiet', 'less on stderr')
    .option('-v, --verbose', 'more on stderr: the decision trace, a summary line per run')
    .exitOverride()
    // Set before the commands are added, which copy it: their help lists the options they inherit.
    .configureHelp({ showGlobalOptions: true })
    .addHelpText('after', overview);
  for (const add of COMMANDS) add(program, action);
  return program;
}

/** Runs the program: the global options, one action wrapper, and one way out for every error. */
export async function runCli(deps: CliDeps): Promise<ExitCode> {
  let exitCode: ExitCode = EXIT.ok;
  let output: Output | undefined;
  let place: AgentPlace | undefined;
  const outputFor = (globals: GlobalOptions) =>
    new Output({
      stdout: deps.stdout,
      stderr: deps.stderr,
      json: !!globals.json,
      quiet: !!globals.quiet,
      verbose: !!globals.verbose,
      noColor: !!deps.env.NO_COLOR,
    });
  const action: Action =
    (work) =>
    async (...args) => {
      const globals = (args[args.length - 1] as Command).optsWithGlobals<GlobalOptions>();
      output = outputFor(globals);
      const ctx = deps.context({
        output,
        env: deps.env,
        configDir: await configDirOf(globals, deps),
        defaultConfigDir: deps.defaultConfigDir,
        baseUrl: globals.baseUrl ?? (deps.env.AGENT_BASE_URL || undefined),
        prompt: globals.json ? undefined : deps.prompt,
        configDirGiven: !!(globals.configDir || deps.env.AGENT_CONFIG_DIR || globals.agent),
        ...(globals.agent === undefined ? {} : { agentName: globals.agent }),
      });
      place = ctx;
      exitCode = (await work(ctx, ...args)) ?? EXIT.ok;
    };
  const program = createProgram(deps.version, action);

  const json = deps.argv.includes('--json');
  const details = json || deps.argv.includes('-v') || deps.argv.includes('--verbose');
  const lastUsageError = routeOutput(program, { ...deps, details });

  try {
    await program.parseAsync(deps.argv, { from: 'user' });
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError && error.code === 'commander.version' && details && deps.about) {
      const globals = program.opts<GlobalOptions>();
      try {
        const configDir = await configDirOf(globals, deps);
        const { writeVersionDetails } = await import('./commands/version.js');
        writeVersionDetails(deps.stdout, { version: deps.version, ...deps.about(), configDir }, json);
        return EXIT.ok;
      } catch (failed) {
        return reportError(failed, outputFor(globals));
      }
    }
    if (error instanceof CommanderError && error.exitCode === 0) return EXIT.ok; // --help, --version
    // What an interrupt made fail (an analyzer stopped "because the agent is shutting down") is the
    // interrupt itself: one rule, exit 130, whatever the command was doing.
    const signal = deps.interrupted?.();
    const shown = signal
      ? new CancelledError(`interrupted (${signal})`, { hint: 'nothing more was sent' })
      : error instanceof CommanderError
        ? usageError(lastUsageError())
        : error;
    return reportError(shown, output ?? outputFor(program.opts<GlobalOptions>()), place);
  }
}
