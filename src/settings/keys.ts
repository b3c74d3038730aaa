import { ANALYZER_KINDS, type AnalyzerKind } from '../analysis/types.js';
import { UsageError } from '../errors.js';

// The settings of docs/cli.md `agent config`: which analyzer decides, how to reach it, and where alerts go.
// Never the service key: an LLM key comes from the environment or from a key file (mode 600) whose path is
// stored here. A webhook or heartbeat URL is a secret of its own (it grants posting to a chat, or faking a
// ping) and is never printed whole (`shownUrl`, src/settings/alert-url.ts).

export const FALLBACKS = ['builtin', 'none'] as const;
export type Fallback = (typeof FALLBACKS)[number];

export interface Settings {
  analyzer?: AnalyzerKind;
  'analyzer.command'?: string;
  /** Seconds, per thread. */
  'analyzer.timeout'?: number;
  'analyzer.fallback'?: Fallback;
  'llm.base-url'?: string;
  'llm.model'?: string;
  /** Absolute path of a file (mode 600) holding the LLM key. */
  'llm.key-file'?: string;
  /** A command line run without a shell, one alert event on its stdin (docs/alerts.md). */
  'alert.command'?: string;
  /** An https URL (http on loopback only) that gets one POST of each alert event. */
  'alert.webhook'?: string;
  /** An https URL (http on loopback only) that gets one GET after each good poll: a dead-man's switch. */
  'alert.heartbeat'?: string;
}

/** The settings that route alerts: with none of them set, a poll does no alert work at all. */
export const ALERT_KEYS = ['alert.command', 'alert.webhook', 'alert.heartbeat'] as const;

export type SettingKey = keyof Settings;

/** Longer than any run may spend on one thread would be pointless: the run's budget is 150 s. */
export const MAX_TIMEOUT_S = 120;

/** Every key, with what `config get` shows when it is not set (what each means: `agent config set --help`). */
export const SETTING_DEFAULTS: Record<SettingKey, string> = {
  analyzer: 'builtin',
  'analyzer.command': '(none)',
  'analyzer.timeout': '10 (command), 60 (llm)',
  'analyzer.fallback': 'none',
  'llm.base-url': '(none)',
  'llm.model': '(none)',
  'llm.key-file': '(none)',
  'alert.command': '(none)',
  'alert.webhook': '(none)',
  'alert.heartbeat': '(none)',
};

export function checkKey(key: string): SettingKey {
  if (Object.hasOwn(SETTING_DEFAULTS, key)) return key as SettingKey;
  throw new UsageError(`unknown setting ${JSON.stringify(key)}`, {
    hint: `the settings are: ${Object.keys(SETTING_DEFAULTS).join(', ')}`,
  });
}

export function parseAnalyzerKind(raw: string, source: string): AnalyzerKind {
  const value = raw.trim().toLowerCase();
  if ((ANALYZER_KINDS as readonly string[]).includes(value)) return value as AnalyzerKind;
  throw new UsageError(`${source} must be one of ${ANALYZER_KINDS.join(', ')} (got ${JSON.stringify(raw)})`);
}

export function parseFallback(raw: string): Fallback {
  const value = raw.trim().toLowerCase();
  if ((FALLBACKS as readonly string[]).includes(value)) return value as Fallback;
  throw new UsageError(`analyzer.fallback must be builtin or none (got ${JSON.stringify(raw)})`);
}

export function parseTimeout(raw: string): number {
  const seconds = Number(raw.trim());
  if (raw.trim() === '' || !Number.isFinite(seconds) || seconds < 0.1 || seconds > MAX_TIMEOUT_S) {
    throw new UsageError(
      `analyzer.timeout must be a number of seconds from 0.1 to ${MAX_TIMEOUT_S} (got ${JSON.stringify(raw)})`,
    );
  }
  return seconds;
}

export function parseModel(raw: string): string {
  const model = raw.trim();
  if (model === '' || model.length > 200 || /[\u0000-\u001f\u007f]/.test(model)) {
    throw new UsageError(`llm.model must be a model name of 1-200 printable characters (got ${JSON.stringify(raw)})`);
  }
  return model;
}
