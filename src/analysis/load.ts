import { builtinAnalyzer } from './builtin.js';
import { withFallback } from './fallback.js';
import { holdsKey } from '../domain/probe.js';
import { cleanInline } from './text-clean.js';
import type { Analyzer } from './types.js';
import type { Thread } from '../domain/thread.js';
import type { Context } from '../context.js';
import { analyzerTimeout, commandDeadline } from '../domain/budget.js';
import { readKeyFile } from '../settings/key-file.js';
import { resolveAnalyzerConfig, type AnalyzerConfig } from '../settings/resolve.js';
import { readSettings } from '../settings/settings-file.js';
import { refuseWritableFiles } from './command/check.js';

export interface LoadedAnalyzer {
  analyzer: Analyzer;
  config: AnalyzerConfig;
  /** Every key the run knows (this agent's, the model's): a cell that holds one is skipped (src/posting/skip-rule.ts). */
  keys: string[];
}

export interface LoadOptions {
  /** `--analyzer`. */
  override?: string;
  /** The service key: kept out of a command's environment and out of any analyzer's answer. */
  secrets?: string[];
  /** Epoch ms the run must end by (bounded); default: the command budget from now. */
  deadline?: number;
  /** Where a command's stderr lines go; default: shown with --verbose. */
  onStderr?: (line: string, threadId: string) => void;
  /** false: measure the analyzer alone (backtest), whatever analyzer.fallback says. */
  fallback?: boolean;
}

/**
 * The analyzer a run uses (`--analyzer`, else AGENT_ANALYZER, else config.json, else the built-in one:
 * docs/cli.md), wrapped in the guards every run needs: keys redacted from its answers, stopped on Ctrl-C,
 * and the fallback the user chose, said once when it was needed.
 */
export async function loadAnalyzer(ctx: Context, options: LoadOptions = {}): Promise<LoadedAnalyzer> {
  const config = resolveAnalyzerConfig(readSettings(ctx.configDir), options.override, {
    env: ctx.env,
    readKeyFile: (file) => readKeyFile(file, ctx),
  });
  const deadline = options.deadline ?? commandDeadline(ctx.timing.now());
  const created = await createAnalyzer(config, ctx, { ...options, deadline });
  const secrets = [
    ...(options.secrets ?? []),
    ...(config.kind === 'llm' && config.llm.apiKey ? [config.llm.apiKey] : []),
  ];
  const primary = stopOnInterrupt(config.kind === 'builtin' ? created : withoutSecrets(created, secrets), ctx);
  const fallback = config.kind !== 'builtin' && config.fallback === 'builtin' && options.fallback !== false;
  return { analyzer: fallback ? fallbackNoticed(primary, ctx) : primary, config, keys: secrets };
}

// The command and LLM analyzers load only when chosen: the LLM one brings undici (docs/performance.md).
async function createAnalyzer(
  config: AnalyzerConfig,
  ctx: Context,
  { secrets = [], deadline, onStderr }: LoadOptions & { deadline: number },
): Promise<Analyzer> {
  if (config.kind === 'command') {
    const { createCommandAnalyzer } = await import('./command/analyzer.js');
    const { parseCommandLine } = await import('./command/command-line.js');
    refuseWritableFiles(parseCommandLine(config.command));
    // Never past the run's deadline (bounded), whatever analyzer.timeout says: a 429 wait before it may have
    // used most of the budget.
    const timeoutMs = analyzerTimeout(deadline, ctx.timing.now(), config.timeoutMs);
    return createCommandAnalyzer({
      commandLine: config.command,
      timeoutMs,
      env: ctx.env,
      secrets,
      onStderr: onStderr ?? ((line: string) => ctx.output.detail(`  analyzer stderr: ${line}`)),
      now: ctx.timing.now,
      stderrInErrors: ctx.output.verbose,
    });
  }
  if (config.kind === 'llm') {
    const { llm } = config;
    if (llm.apiKey) ctx.output.addSecret(llm.apiKey);
    const { createLlmAnalyzer } = await import('./llm/index.js');
    return createLlmAnalyzer({
      baseUrl: llm.baseUrl.href,
      model: llm.model,
      apiKey: llm.apiKey,
      timeoutMs: config.timeoutMs,
      timing: ctx.timing,
      deadline,
    });
  }
  return builtinAnalyzer;
}

/** The user's program or a request to a model ends with the agent, whether it finishes or is interrupted. */
function stopOnInterrupt(analyzer: Analyzer, ctx: Context): Analyzer {
  if (!analyzer.close || !ctx.onInterrupt) return analyzer;
  const close = analyzer.close.bind(analyzer);
  const undo = ctx.onInterrupt(close);
  return {
    name: analyzer.name,
    analyze: analyzer.analyze.bind(analyzer),
    close: async () => {
      undo();
      await close();
    },
  };
}

/**
 * A fallback that hides a dead model or a broken script for weeks helps nobody: each run that needed it
 * says so once on stderr (cron mails it), while its predictions still go out.
 */
function fallbackNoticed(primary: Analyzer, ctx: Context): Analyzer {
  const failures: string[] = [];
  const analyzer = withFallback(primary, builtinAnalyzer, (error) => failures.push(error.message));
  return {
    ...analyzer,
    close: async () => {
      await analyzer.close?.();
      if (failures.length) {
        ctx.output.warn(
          `agent: the ${primary.name} analyzer failed on ${failures.length} thread(s), so the built-in analyzer decided (first: ${failures[0]})`,
        );
      }
    },
  };
}

/**
 * Keys stay on both sides of an analyzer. Out: a model that echoes its Authorization header, or a script
 * that read the state file, must not put a key into a public post (the terminal would show it masked while
 * the service stored it in clear). In: a thread is written by strangers and may quote our key (the service
 * echoing it, or someone who saw it), and a model or a script is somewhere else it must not go.
 */
function withoutSecrets(analyzer: Analyzer, secrets: string[]): Analyzer {
  const keys = secrets.filter((secret) => secret.length >= 8);
  // Checked on the probe: a zero-width character inside the key would hide it from a plain search, and
  // the cleaning before posting would then put it back together.
  const scrub = (text: string) =>
    keys.some((key) => holdsKey(text, key))
      ? cleanInline(text)
          .split(/(?<=[.!?;,])\s+/)
          .map((part) => (keys.some((key) => holdsKey(part, key)) ? '[redacted]' : part))
          .join(' ')
      : text;
  // A thread keeps its words and line breaks where it can: only the key goes, or its sentence if hidden.
  const scrubIn = (text: string) => scrub(keys.reduce((out, key) => out.split(key).join('[redacted]'), text));
  const scrubThread = (thread: Thread): Thread => ({
    ...thread,
    text: scrubIn(thread.text),
    citations: thread.citations.map((c) => ({
      ...(c.url === undefined ? {} : { url: scrubIn(c.url) }),
      ...(c.title === undefined ? {} : { title: scrubIn(c.title) }),
    })),
  });
  return {
    name: analyzer.name,
    close: analyzer.close?.bind(analyzer),
    async analyze(thread, profile, trace) {
      const output = await analyzer.analyze(scrubThread(thread), profile, trace);
      if (output.kind === 'signal')
        return { ...output, evidence: output.evidence.map((e) => ({ ...e, phrase: scrub(e.phrase) })) };
      return output.action === 'post'
        ? { ...output, text: scrub(output.text) }
        : { ...output, reason: scrub(output.reason) };
    },
  };
}
