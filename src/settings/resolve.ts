import type { AnalyzerKind } from '../analysis/types.js';
import { UsageError } from '../errors.js';
import { parseAnalyzerKind, parseModel, type Fallback, type Settings } from './table.js';
import { checkKeyTransport, parseLlmBaseUrl } from './llm-url.js';

/** Which analyzer a run uses and how, once flags, env vars and config.json have had their say. */
export type AnalyzerConfig = { kind: 'builtin'; timeoutMs: number; fallback: Fallback } | CommandConfig | LlmConfig;

interface Common {
  /** Per thread. */
  timeoutMs: number;
  fallback: Fallback;
}
/** command: the command line as the user wrote it. */
export type CommandConfig = Common & { kind: 'command'; command: string };
export type LlmConfig = Common & { kind: 'llm'; llm: { baseUrl: URL; model: string; apiKey?: string } };

export const DEFAULT_TIMEOUT_S: Record<AnalyzerKind, number> = { builtin: 10, command: 10, llm: 60 };

export interface ResolveDeps {
  env: Record<string, string | undefined>;
  /** Reads llm.key-file; only called when the LLM analyzer is chosen and no env key is given. */
  readKeyFile: (file: string) => string;
}

/** Precedence, per value: the command's flag, then the env var (docs/cli.md), then config.json, then the default. */
export function resolveAnalyzerConfig(
  settings: Settings,
  override: string | undefined,
  { env, readKeyFile }: ResolveDeps,
): AnalyzerConfig {
  const kind =
    override !== undefined
      ? parseAnalyzerKind(override, '--analyzer')
      : env.AGENT_ANALYZER
        ? parseAnalyzerKind(env.AGENT_ANALYZER, 'AGENT_ANALYZER')
        : (settings.analyzer ?? 'builtin');
  const common: Common = {
    timeoutMs: Math.round((settings['analyzer.timeout'] ?? DEFAULT_TIMEOUT_S[kind]) * 1000),
    fallback: settings['analyzer.fallback'] ?? 'none',
  };
  if (kind === 'command') {
    const command = env.AGENT_ANALYZER_COMMAND || settings['analyzer.command'];
    if (!command) {
      throw new UsageError('the analyzer is "command" but no command is set', {
        hint: 'run: agent config set analyzer.command "<your command>" (or set AGENT_ANALYZER_COMMAND)',
      });
    }
    return { ...common, kind, command };
  }
  if (kind === 'llm') {
    const rawUrl = env.AGENT_LLM_BASE_URL || settings['llm.base-url'];
    const rawModel = env.AGENT_LLM_MODEL || settings['llm.model'];
    if (!rawUrl || !rawModel) {
      throw new UsageError(`the analyzer is "llm" but ${!rawUrl ? 'llm.base-url' : 'llm.model'} is not set`, {
        hint: 'run: agent config set llm.base-url <url> and agent config set llm.model <name> (or AGENT_LLM_BASE_URL, AGENT_LLM_MODEL)',
      });
    }
    const model = parseModel(rawModel);
    const baseUrl = parseLlmBaseUrl(rawUrl, env.AGENT_LLM_BASE_URL ? 'AGENT_LLM_BASE_URL' : 'llm.base-url');
    const keyFile = settings['llm.key-file'];
    const stored = settings['llm.base-url'];
    // The stored key goes only to the stored server: an env override for one run names another server,
    // and its key with it (like the service key, which is bound to the origin it was issued by).
    if (
      !env.AGENT_LLM_API_KEY &&
      keyFile &&
      env.AGENT_LLM_BASE_URL &&
      (!stored || parseLlmBaseUrl(stored).origin !== baseUrl.origin)
    ) {
      throw new UsageError(
        `AGENT_LLM_BASE_URL names ${baseUrl.origin}, but the key in llm.key-file belongs to ${stored ? parseLlmBaseUrl(stored).origin : 'the stored llm.base-url'}`,
        {
          hint: 'give that server its own key with AGENT_LLM_API_KEY, or change llm.base-url with agent config set',
        },
      );
    }
    const apiKey = env.AGENT_LLM_API_KEY || (keyFile ? readKeyFile(keyFile) : undefined);
    if (apiKey) checkKeyTransport(baseUrl);
    return { ...common, kind, llm: { baseUrl, model, ...(apiKey ? { apiKey } : {}) } };
  }
  return { ...common, kind };
}
