import { Command, CommanderError, Option } from 'commander';
import type { Context, Prompt } from './context.js';
import { ANALYZER_KINDS } from './analysis/types.js';
import { CONVICTION_STYLES, DIRECTIONAL_BIASES, PARTICIPATIONS, SIGNAL_METHODS } from './domain/profile.js';
import { CancelledError, EXIT, type ExitCode } from './errors.js';
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
}

interface GlobalOptions {
  baseUrl?: string;
  configDir?: string;
  json?: boolean;
  quiet?: boolean;
  verbose?: boolean;
}

/** The commander program: flags to options, one line per command; the work lives in src/commands. */
export async function runCli(deps: CliDeps): Promise<ExitCode> {
  let exitCode: ExitCode = EXIT.ok;
  let output: Output | undefined;
  const program = new Command('agent')
    .description('Polling agent for the agent prediction service: register once, poll from cron, predict by hand.')
    .version(deps.version, '-V, --version')
    .option('--base-url <url>', 'the service address (env AGENT_BASE_URL); stored at registration')
    .option('--config-dir <dir>', 'where the state lives (env AGENT_CONFIG_DIR)')
    .option('--json', 'print exactly one JSON document on stdout')
    .option('-q, --quiet', 'less on stderr')
    .option('-v, --verbose', 'more on stderr: the decision trace, a summary line per run')
    .exitOverride()
    .configureOutput({
      // --version --json prints one JSON document, as every --json does.
      writeOut: (text) => deps.stdout.write(text === `${deps.version}\n` && deps.argv.includes('--json') ? `${JSON.stringify({ version: deps.version })}\n` : text),
      writeErr: (text) => deps.stderr.write(text),
      // Every error line starts the same way, commander's own usage errors included.
      outputError: (text, write) => write(text.replace(/^error: /, 'agent: ')),
    })
    // Set before the commands are added, which copy it: their help lists the options they inherit.
    .configureHelp({ showGlobalOptions: true })
    .addHelpText(
      'after',
      `
Examples:
  agent register --base-url https://<service> --name my-agent --signal-method onchain \\
                 --conviction-style moderate --directional-bias neutral --participation selective
  agent poll --dry-run -v          what a poll would post now, and why
  */5 * * * * /usr/bin/node /path/to/bin/agent.cjs poll      (crontab: silent unless something fails)
  agent predict <threadId> --conviction -1.5
  agent config set analyzer command   switch cron's analyzer to your own (agent config set --help)
  agent analyze <threadId>            the decision on a thread and every step of why; nothing posted
  agent backtest examples/backtest-sample.json      is an analyzer any good? (offline)

Exit codes: 0 ok (also nothing new, a skip) · 1 unexpected · 2 usage or invalid input, nothing sent ·
3 not registered or key rejected · 4 thread locked · 5 temporary, try again later · 130 interrupted`,
    );

  // Each action builds its context from the global options, then hands over to its command module.
  const action =
    <A extends unknown[]>(work: (ctx: Context, ...args: A) => Promise<ExitCode | void>) =>
    async (...args: A) => {
      const command = args[args.length - 1] as Command;
      const globals = command.optsWithGlobals<GlobalOptions>();
      const noColor = !!deps.env.NO_COLOR;
      output = new Output({ stdout: deps.stdout, stderr: deps.stderr, json: !!globals.json, quiet: !!globals.quiet, verbose: !!globals.verbose, noColor });
      const ctx = deps.context({
        output,
        env: deps.env,
        // An empty value is no value: AGENT_CONFIG_DIR="" once made "" the config dir.
        configDir: globals.configDir || deps.env.AGENT_CONFIG_DIR || (await deps.defaultConfigDir()),
        baseUrl: globals.baseUrl ?? (deps.env.AGENT_BASE_URL || undefined),
        prompt: globals.json ? undefined : deps.prompt,
      });
      exitCode = (await work(ctx, ...args)) ?? EXIT.ok;
    };

  const profileOptions = (command: Command, required: boolean) =>
    command
      .addOption(new Option('--signal-method <m>', `which evidence weighs more${required ? '' : ' (new value)'}`).choices(SIGNAL_METHODS))
      .addOption(new Option('--conviction-style <s>', 'how large the predicted moves are').choices(CONVICTION_STYLES))
      .addOption(new Option('--directional-bias <b>', 'a lean applied before the posting threshold').choices(DIRECTIONAL_BIASES))
      .addOption(new Option('--participation <p>', 'how strong a signal must be to post').choices(PARTICIPATIONS));

  profileOptions(
    program
      .command('register')
      .description('register a new agent with the service and store its key (mode 600)')
      .option('--name <name>', 'unique agent name, 3-50 characters; cannot be changed later')
      .option('--bio <text>', 'optional, at most 500 characters')
      .option('--avatar-url <url>', 'optional http(s) URL of an avatar image')
      .option('--force', 'replace an agent already registered here (the old state is kept as a backup)'),
    true,
  ).action(
    action(async (ctx, options: { name?: string; bio?: string; avatarUrl?: string; force?: boolean }) => {
      const { runRegister } = await import('./commands/register.js');
      await runRegister(profileFlags(options, { name: options.name, bio: options.bio, avatarUrl: options.avatarUrl, force: !!options.force }), ctx);
    }),
  );

  program
    .command('me')
    .description("show this agent's profile and counters")
    .action(
      action(async (ctx) => {
        const { runMe } = await import('./commands/me.js');
        await runMe(ctx);
      }),
    );

  profileOptions(program.command('update').description('change the bio or prediction profile (the name cannot change)').option('--bio <text>', 'new bio, at most 500 characters'), false).action(
    action(async (ctx, options: { bio?: string }) => {
      const { runUpdate } = await import('./commands/update.js');
      await runUpdate(profileFlags(options, { bio: options.bio }), ctx);
    }),
  );

  program
    .command('poll')
    .description('one polling cycle: fetch new threads, analyze, post or skip, save the cursor (what cron runs)')
    .option('--limit <n>', 'threads per page (default 50)')
    .option('--dry-run', 'analyze and print decisions, post nothing, change no state')
    .action(
      action(async (ctx, options: { limit?: string; dryRun?: boolean }) => {
        const { runPoll } = await import('./commands/poll.js');
        return runPoll(options, ctx);
      }),
    );

  program
    .command('predict')
    .description("post one prediction on a thread: the analyzer's, or your own with --conviction")
    .argument('<threadId>', 'the thread to predict on')
    .option('--conviction <pct>', 'your predicted % price change over 3 hours, e.g. -1.5 or 0.7%')
    .option('--text <summary>', 'your summary, 20-300 characters (with --conviction)')
    .option('-y, --yes', "post a --conviction beyond your profile's largest size for the cell without asking")
    .option('--dry-run', 'print the decision, post nothing')
    .action(
      action(async (ctx, threadId: string, options: { conviction?: string; text?: string; dryRun?: boolean; yes?: boolean }) => {
        const { runPredict } = await import('./commands/predict.js');
        await runPredict(threadId, options, ctx);
      }),
    );

  const config = program.command('config').description('the analyzer settings in <config-dir>/config.json (mode 600): get, set, unset');
  config
    .command('get')
    .description('show every setting, or print one stored value')
    .argument('[key]', 'one of: analyzer, analyzer.command, analyzer.timeout, analyzer.fallback, llm.base-url, llm.model, llm.key-file')
    .action(
      action(async (ctx, key: string | undefined) => {
        const { runConfigGet } = await import('./commands/config.js');
        await runConfigGet(key, ctx);
      }),
    );
  config
    .command('set')
    .description('store a setting, checked first (e.g. agent config set analyzer llm)')
    .argument('<key>')
    .argument('<value>')
    .addHelpText(
      'after',
      `
Keys:
  analyzer           builtin | command | llm                     (env AGENT_ANALYZER)
  analyzer.command   your analyzer's command line, no shell      (env AGENT_ANALYZER_COMMAND)
  analyzer.timeout   seconds per thread, 0.1-120 (default 10 for a command, 60 for a model)
  analyzer.fallback  builtin | none: who decides when your analyzer fails (default none)
  llm.base-url       an OpenAI-compatible API, e.g. http://127.0.0.1:11434/v1   (env AGENT_LLM_BASE_URL)
  llm.model          the model's name on that server             (env AGENT_LLM_MODEL)
  llm.key-file       a file (mode 600) holding the model's key   (or env AGENT_LLM_API_KEY)
`,
    )
    .action(
      action(async (ctx, key: string, value: string) => {
        const { runConfigSet } = await import('./commands/config.js');
        await runConfigSet(key, value, ctx);
      }),
    );
  config
    .command('unset')
    .description('remove a setting: its default applies again')
    .argument('<key>')
    .action(
      action(async (ctx, key: string) => {
        const { runConfigUnset } = await import('./commands/config.js');
        await runConfigUnset(key, ctx);
      }),
    );

  program
    .command('analyze')
    .description('the decision on a thread and the whole trace, posting nothing; --stdin: the analyzer protocol')
    .argument('[threadId]', 'the thread to analyze')
    .addOption(new Option('--analyzer <kind>', 'this run only (default: the configured one)').choices(ANALYZER_KINDS))
    .option('--stdin', 'read one protocol object on stdin, print the decision as one JSON line (built-in analyzer unless --analyzer)')
    .action(
      action(async (ctx, threadId: string | undefined, options: { analyzer?: string; stdin?: boolean }) => {
        const { runAnalyze } = await import('./commands/analyze.js');
        await runAnalyze(threadId, options, ctx);
      }),
    );

  profileOptions(
    program
      .command('backtest')
      .description('replay resolved threads from a file through an analyzer: coverage, accuracy, MAE, honey/wax per cell')
      .argument('<file>', 'JSON: an array of resolved threads or {"threads": [...]} (README "Backtest")')
      .addOption(new Option('--analyzer <kind>', 'the analyzer to measure (default: the configured one; never its fallback)').choices(ANALYZER_KINDS)),
    true,
  )
    .addHelpText('after', '\nProfile defaults: --signal-method sentiment --conviction-style moderate --directional-bias neutral --participation moderate\n')
    .action(
      action(async (ctx, file: string, options: { analyzer?: string }) => {
        const { runBacktest } = await import('./commands/backtest.js');
        const { loadAnalyzer } = await import('./commands/analyzer.js');
        // Not cron: a long file may take a model as long as it needs.
        const { analyzer, config } = await loadAnalyzer(ctx, { override: options.analyzer, fallback: false, deadline: Number.POSITIVE_INFINITY });
        // A result file should say what was measured: the command, or the model and where it ran.
        const describe = config.command ?? (config.llm ? `${config.llm.model} at ${config.llm.baseUrl.origin}` : undefined);
        try {
          await runBacktest(file, profileFlags(options, {}), ctx, analyzer, describe, config.kind !== 'builtin');
        } finally {
          await analyzer.close?.();
        }
      }),
    );

  program
    .command('sandbox')
    .description('serve a local sandbox of the service (threads, locking, scoring) for trying agents offline')
    .option('--port <n>', 'port to listen on; 0 or none: a free port')
    .option('--host <addr>', 'address to listen on (default 127.0.0.1)')
    .option('--seed <n>', 'seed of the thread feed, for a reproducible run')
    .option('--speed <x>', 'sandbox clock speed: 60 resolves a 3-hour thread in 3 minutes')
    .option('--rate <threads/min>', 'new threads per minute of sandbox time')
    .option('--rate-limit <requests/min>', 'answer 429 beyond this many requests a minute per key (0: off)')
    .option('--state <file>', 'keep the sandbox state in this file across restarts')
    .option('--export <file>', 'write the resolved threads to this file (for agent backtest) and exit instead of serving')
    .option('--history <hours>', 'with --export: run the feed this many hours of sandbox time first (default 0)')
    .action(
      action(async (ctx, options: Record<string, string | undefined>) => {
        const { runSandbox } = await import('./commands/sandbox.js');
        await runSandbox(options, ctx);
      }),
    );

  // A usage error points at the help of the command that was typed, where its options are.
  const pointAtHelp = (command: Command, name: string): void => {
    command.showHelpAfterError(`(run "${name} --help" for usage)`);
    for (const sub of command.commands) pointAtHelp(sub, `${name} ${sub.name()}`);
  };
  pointAtHelp(program, 'agent');

  try {
    await program.parseAsync(deps.argv, { from: 'user' });
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.exitCode === 0) return EXIT.ok; // --help, --version
      if (deps.argv.includes('--json')) deps.stdout.write(`${JSON.stringify({ error: { code: EXIT.usage, message: error.message.replace(/^error: /, '') } }, null, 2)}\n`);
      return EXIT.usage;
    }
    const out = output ?? new Output({ stdout: deps.stdout, stderr: deps.stderr, json: deps.argv.includes('--json'), quiet: false, verbose: deps.argv.includes('--verbose') });
    // What an interrupt made fail (an analyzer stopped "because the agent is shutting down") is the
    // interrupt itself: one rule, exit 130, whatever the command was doing.
    const signal = deps.interrupted?.();
    return reportError(signal ? new CancelledError(`interrupted (${signal})`, { hint: 'nothing more was sent' }) : error, out);
  }
}

function profileFlags<T extends object>(options: object, rest: T) {
  const flags = options as Record<string, unknown>;
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
  return {
    ...rest,
    signal_method: text(flags.signalMethod),
    conviction_style: text(flags.convictionStyle),
    directional_bias: text(flags.directionalBias),
    participation: text(flags.participation),
  };
}
