import * as z from 'zod/mini';
import { checkCommandLine } from '../analysis/command/check.js';
import { ANALYZER_KINDS, type AnalyzerKind } from '../analysis/types.js';
import { userPath } from '../domain/home-path.js';
import { UsageError } from '../errors.js';
import { type AgentPlace, agentCommand } from '../output/command-hint.js';
import type { RunningUser } from '../state/owner.js';
import { parseAlertUrl, shownUrl } from './alert-url.js';
import { readKeyFile } from './key-file.js';
import { parseLlmBaseUrl } from './llm-url.js';

// The settings of `agent config`, one entry each: everything else about a setting (what config.json may
// hold, what `config set` accepts, its help, completion, the docs' table, env overrides, masking) is read
// from here. Never the service key: an LLM key comes from the environment or from a key file (mode 600)
// whose path is stored here. A webhook or heartbeat URL is a secret of its own (it grants posting to a
// chat, or faking a ping) and is never printed whole.

export const FALLBACKS = ['builtin', 'none'] as const;
export type Fallback = (typeof FALLBACKS)[number];

/** Longer than any run may spend on one thread would be pointless: the run's budget is 150 s. */
export const MAX_TIMEOUT_S = 120;

/** What a parser may need besides the text: where `~` is, whom a hint names, and a way to add a note. */
export interface ParseUse {
  home: string | undefined;
  place: AgentPlace & { user?: RunningUser };
  note: (line: string) => void;
}

/** What a setting is for: every analyzer, one of them, or the alerts. */
export type Feature = 'analyzers' | Exclude<AnalyzerKind, 'builtin'> | 'alerts';

export interface SettingSpec<T> {
  /** What config.json may hold under this name (checked on every read). */
  schema: z.ZodMiniType<T>;
  /** What `config set` accepts, as it will be used, and the value it stores. Throws a UsageError. */
  parse: (raw: string, use: ParseUse) => T;
  /** What `config get` and the docs show while it is not set. */
  shownDefault: string;
  /** One line: what it does. */
  about: string;
  feature: Feature;
  /** The analyzer named by `feature` cannot run without it: switching to that analyzer waits for it. */
  required?: { placeholder: string };
  /** The env var that replaces it for one run; `secret`: its value is never printed. */
  envVar?: { name: string; secret?: true };
  /** `url`: shown as scheme and host only (the whole URL is a secret). */
  masked?: 'url';
  /** What the shell offers after `config set <name>`. */
  complete?: { words: readonly string[] } | { path: 'file' };
}

/** An entry of the table: a function only so that its value type is inferred from its schema. */
function setting<T>(spec: SettingSpec<T>): SettingSpec<T> {
  return spec;
}

const someText = () => z.string().check(z.minLength(1));

export const SETTINGS = {
  analyzer: setting({
    schema: z.enum(ANALYZER_KINDS),
    parse: (raw) => parseAnalyzerKind(raw, 'analyzer'),
    shownDefault: 'builtin',
    about: `which analyzer decides: ${ANALYZER_KINDS.join(', ')}`,
    feature: 'analyzers',
    envVar: { name: 'AGENT_ANALYZER' },
    complete: { words: ANALYZER_KINDS },
  }),
  'analyzer.command': setting({
    schema: someText(),
    parse: (raw, { home, note }) => checkCommandLine(raw, note, { home }),
    shownDefault: '(none)',
    about: "your analyzer's command line, run without a shell",
    feature: 'command',
    required: { placeholder: '"<your command>"' },
    envVar: { name: 'AGENT_ANALYZER_COMMAND' },
  }),
  'analyzer.timeout': setting({
    schema: z.number().check(z.gte(0.1), z.lte(MAX_TIMEOUT_S)),
    parse: parseTimeout,
    shownDefault: '10 (command), 60 (llm)',
    about: `seconds per thread, 0.1-${MAX_TIMEOUT_S}`,
    feature: 'analyzers',
  }),
  'analyzer.fallback': setting({
    schema: z.enum(FALLBACKS),
    parse: parseFallback,
    shownDefault: 'none',
    about: `${FALLBACKS.join(' or ')}: when your analyzer fails, \`none\` leaves the thread due (retried by later runs, up to 5 times), \`builtin\` lets the built-in analyzer decide (the trace says so)`,
    feature: 'analyzers',
    complete: { words: FALLBACKS },
  }),
  'llm.base-url': setting({
    schema: someText(),
    parse: (raw) => {
      const url = parseLlmBaseUrl(raw);
      return `${url.origin}${url.pathname === '/' ? '' : url.pathname}`;
    },
    shownDefault: '(none)',
    about: 'an OpenAI-compatible API, e.g. `http://127.0.0.1:11434/v1`',
    feature: 'llm',
    required: { placeholder: '<url>' },
    envVar: { name: 'AGENT_LLM_BASE_URL' },
  }),
  'llm.model': setting({
    schema: someText(),
    parse: parseModel,
    shownDefault: '(none)',
    about: "the model's name on that server",
    feature: 'llm',
    required: { placeholder: '<name>' },
    envVar: { name: 'AGENT_LLM_MODEL' },
  }),
  'llm.key-file': setting({
    schema: someText(),
    parse: parseKeyFile,
    shownDefault: '(none)',
    about:
      "a file of yours (mode 600) holding the model's key; the key itself is never stored in config.json, never printed",
    feature: 'llm',
    envVar: { name: 'AGENT_LLM_API_KEY', secret: true },
    complete: { path: 'file' },
  }),
  'alert.command': setting({
    schema: someText(),
    parse: (raw, { home, note }) => checkCommandLine(raw, note, { home, setting: 'alert.command' }),
    shownDefault: '(none)',
    about: 'a program (absolute path, no shell) given each alert as one JSON line on stdin',
    feature: 'alerts',
  }),
  'alert.webhook': setting({
    schema: someText(),
    parse: (raw) => parseAlertUrl(raw, 'alert.webhook').href,
    shownDefault: '(none)',
    about: 'an https URL that gets each alert as one JSON POST; a secret: shown as scheme and host only',
    feature: 'alerts',
    masked: 'url',
  }),
  'alert.heartbeat': setting({
    schema: someText(),
    parse: (raw) => parseAlertUrl(raw, 'alert.heartbeat').href,
    shownDefault: '(none)',
    about:
      "an https URL that gets one GET after each good poll (a dead-man's switch); a secret: shown as scheme and host only",
    feature: 'alerts',
    masked: 'url',
  }),
} satisfies Record<string, SettingSpec<string> | SettingSpec<number>>;

export type SettingName = keyof typeof SETTINGS;
type ValueOf<S> = S extends SettingSpec<infer T> ? T : never;
/** config.json as this version reads it. */
export type Settings = { [N in SettingName]?: ValueOf<(typeof SETTINGS)[N]> };

export const SETTING_NAMES = Object.keys(SETTINGS) as SettingName[];

export function settingSpec(name: SettingName): SettingSpec<Settings[SettingName]> {
  return SETTINGS[name] as SettingSpec<Settings[SettingName]>;
}

/** The settings that route alerts: with none of them set, a poll does no alert work at all. */
export const ALERT_SETTINGS = SETTING_NAMES.filter((name) => SETTINGS[name].feature === 'alerts');

export function checkSettingName(name: string): SettingName {
  if (Object.hasOwn(SETTINGS, name)) return name as SettingName;
  throw new UsageError(`unknown setting ${JSON.stringify(name)}`, {
    hint: `the settings are: ${SETTING_NAMES.join(', ')}`,
  });
}

/** What may be printed of a stored value. */
export function shownValue<T>(name: string, value: T): T | string {
  // A name this version does not know (kept in config.json as it was) is shown as it is.
  const masked = Object.hasOwn(SETTINGS, name) && settingSpec(name as SettingName).masked === 'url';
  return masked && typeof value === 'string' ? shownUrl(value) : value;
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

function parseKeyFile(raw: string, { home, place }: ParseUse): string {
  // A key pasted here instead of a path must not be echoed back in an error message.
  if (!/^[~./]|[/\\]/.test(raw.trim())) {
    throw new UsageError('llm.key-file takes the path of a file that holds the key, not the key itself', {
      hint: `e.g. ${agentCommand(place, 'config set llm.key-file ~/.config/agent-llm.key')} (mode 600), or set AGENT_LLM_API_KEY`,
    });
  }
  // Stored absolute: cron runs from another directory.
  const file = userPath(raw.trim(), home);
  readKeyFile(file, place);
  return file;
}
