import type { AnalyzerKind } from '../../analysis/types.js';
import type { Context } from '../../context.js';
import { userPath } from '../../domain/home-path.js';
import { type AgentPlace, agentCommand } from '../../output/command-hint.js';
import { StateError, UsageError } from '../../errors.js';
import {
  checkKey,
  parseAnalyzerKind,
  parseFallback,
  parseModel,
  parseTimeout,
  SETTING_DEFAULTS,
  type SettingKey,
  type Settings,
} from '../../settings/keys.js';
import { readKeyFile } from '../../settings/key-file.js';
import { parseLlmBaseUrl } from '../../settings/llm-url.js';
import { parseAlertUrl, shownUrl } from '../../settings/alert-url.js';
import { readSettings, readSettingsForEdit, settingsFile, writeSettings } from '../../settings/settings-file.js';
import { checkCommandLine } from '../../analysis/command/check.js';
import { shownPath } from '../../output/sanitize.js';

/** The env var that overrides a setting per run (docs/cli.md), if any. */
const ENV_OVERRIDES: Partial<Record<SettingKey, string>> = {
  analyzer: 'AGENT_ANALYZER',
  'analyzer.command': 'AGENT_ANALYZER_COMMAND',
  'llm.base-url': 'AGENT_LLM_BASE_URL',
  'llm.model': 'AGENT_LLM_MODEL',
};

/** `agent config get [<key>]`: stored values alone on stdout (for scripts); defaults and overrides noted. */
export async function runConfigGet(ctx: Context, rawKey: string | undefined): Promise<void> {
  const settings = readSettings(ctx.configDir, ctx);
  const file = settingsFile(ctx.configDir);
  if (rawKey !== undefined) {
    const key = checkKey(rawKey);
    const value = settings[key];
    const override = overrideOf(key, ctx);
    if (value === undefined) ctx.output.warn(`${key} is not set (default: ${SETTING_DEFAULTS[key]})`);
    if (override)
      ctx.output.warn(
        `${override}=${ctx.env[override]} is set in this environment and overrides it for runs that have it`,
      );
    const shown = value === undefined ? undefined : shownValue(key, value);
    if (shown !== undefined && shown !== value)
      ctx.output.warn(
        `${key} is a secret: only its scheme and host are shown (the whole URL is in ${shownPath(file)})`,
      );
    ctx.output.result(shown === undefined ? [] : String(shown), {
      key,
      value: shown ?? null,
      ...(shown !== value ? { masked: true } : {}),
      ...(override ? { overriddenBy: override } : {}),
    });
    return;
  }
  const width = Math.max(...Object.keys(SETTING_DEFAULTS).map((k) => k.length));
  const lines = (Object.keys(SETTING_DEFAULTS) as SettingKey[]).map((key) => {
    const value = settings[key];
    const override = overrideOf(key, ctx);
    const shown = value === undefined ? `${SETTING_DEFAULTS[key]}  (default)` : String(shownValue(key, value));
    return `${key.padEnd(width)}  ${shown}${override ? `  (here ${override}=${ctx.env[override]} overrides it)` : ''}`;
  });
  const llmKey = ctx.env.AGENT_LLM_API_KEY
    ? 'from AGENT_LLM_API_KEY (never shown)'
    : settings['llm.key-file']
      ? `from ${shownPath(settings['llm.key-file'])} (never shown)`
      : 'none';
  ctx.output.result([...lines, `${'llm key'.padEnd(width)}  ${llmKey}`, '', `Settings file: ${shownPath(file)}`], {
    file,
    settings: Object.fromEntries(
      Object.entries(settings).map(([key, value]) => [key, shownValue(key as SettingKey, value)]),
    ),
    overrides: Object.fromEntries(
      (Object.keys(ENV_OVERRIDES) as SettingKey[]).flatMap((key) =>
        overrideOf(key, ctx) ? [[key, overrideOf(key, ctx)]] : [],
      ),
    ),
    llmKey: ctx.env.AGENT_LLM_API_KEY ? 'env' : settings['llm.key-file'] ? 'file' : 'none',
  });
}

/** `agent config set <key> <value>`: checked as it will be used, then written atomically (mode 600). */
export async function runConfigSet(ctx: Context, rawKey: string, rawValue: string): Promise<void> {
  const key = checkKey(rawKey);
  // Said after the result, which is what was asked for.
  const notes: string[] = [];
  const value = parseValue(key, rawValue, ctx, (line) => notes.push(line));
  const next = { ...readSettingsForEdit(ctx.configDir), [key]: value };
  refuseUnusableAnalyzer(next, key, ctx);
  const file = writeSettings(ctx.configDir, next, ctx.user);
  // Stored; but a run reads the whole file, and one other bad value still stops it.
  try {
    readSettings(ctx.configDir, ctx);
  } catch (error) {
    if (error instanceof StateError) notes.push(`note: ${error.message}; ${error.hint ?? ''}`);
  }
  const shown = shownValue(key, value);
  ctx.output.result(`Set ${key} = ${shown} in ${shownPath(file)}`, { key, value: shown, file });
  for (const line of notes) ctx.output.warn(line);
}

/** `agent config unset <key>`: back to the default. */
export async function runConfigUnset(ctx: Context, rawKey: string): Promise<void> {
  const key = checkKey(rawKey);
  const settings = readSettingsForEdit(ctx.configDir);
  const file = settingsFile(ctx.configDir);
  const removed = key in settings;
  if (removed) {
    const { [key]: _gone, ...rest } = settings;
    refuseUnusableAnalyzer(rest, key, ctx);
    writeSettings(ctx.configDir, rest, ctx.user);
  }
  ctx.output.result(removed ? `Unset ${key} (default: ${SETTING_DEFAULTS[key]})` : `${key} was not set`, {
    key,
    removed,
    file,
  });
}

function parseValue(key: SettingKey, raw: string, ctx: Context, note: (line: string) => void): Settings[SettingKey] {
  switch (key) {
    case 'analyzer':
      return parseAnalyzerKind(raw, 'analyzer');
    case 'analyzer.command':
      return checkCommandLine(raw, note, { home: ctx.env.HOME });
    case 'analyzer.timeout':
      return parseTimeout(raw);
    case 'analyzer.fallback':
      return parseFallback(raw);
    case 'llm.base-url': {
      const url = parseLlmBaseUrl(raw);
      return `${url.origin}${url.pathname === '/' ? '' : url.pathname}`;
    }
    case 'llm.model':
      return parseModel(raw);
    case 'alert.command':
      return checkCommandLine(raw, note, { home: ctx.env.HOME, key });
    case 'alert.webhook':
    case 'alert.heartbeat':
      return parseAlertUrl(raw, key).href;
    case 'llm.key-file': {
      // A key pasted here instead of a path must not be echoed back in an error message.
      if (!/^[~./]|[/\\]/.test(raw.trim())) {
        throw new UsageError('llm.key-file takes the path of a file that holds the key, not the key itself', {
          hint: `e.g. ${agentCommand(ctx, 'config set llm.key-file ~/.config/agent-llm.key')} (mode 600), or set AGENT_LLM_API_KEY`,
        });
      }
      // Stored absolute: cron runs from another directory.
      const file = userPath(raw.trim(), ctx.env.HOME);
      readKeyFile(file, ctx);
      return file;
    }
  }
}

/** What each analyzer needs in config.json: cron's runs have no environment to fill a gap with. */
const NEEDS: Partial<Record<AnalyzerKind, SettingKey[]>> = {
  command: ['analyzer.command'],
  llm: ['llm.base-url', 'llm.model'],
};
const PLACEHOLDERS: Partial<Record<SettingKey, string>> = {
  'analyzer.command': '"<your command>"',
  'llm.base-url': '<url>',
  'llm.model': '<name>',
};

/**
 * Settings that choose an analyzer without what it needs would fail every poll, cron's included, until
 * someone noticed, while the threads aged: such a change (`key` set or unset) is refused, saying what to
 * set first, and nothing is written.
 */
function refuseUnusableAnalyzer(next: Record<string, unknown>, key: SettingKey, place: AgentPlace): void {
  const kind = next.analyzer as AnalyzerKind | undefined;
  const missing = (kind && NEEDS[kind]?.filter((need) => !next[need])) || [];
  // A change that leaves the analyzer no worse than it was (setting one of two missing values) goes on.
  if (missing.length === 0 || (key !== 'analyzer' && !missing.includes(key))) return;
  const names = missing.join(' and ');
  if (key === 'analyzer') {
    const first = missing
      .map((need) => agentCommand(place, `config set ${need} ${PLACEHOLDERS[need]}`))
      .join(', then ');
    throw new UsageError(
      `${names} ${missing.length === 1 ? 'is' : 'are'} not set: with analyzer ${kind}, every poll (cron's too) would fail; nothing was changed`,
      {
        hint: `set ${missing.length === 1 ? 'it' : 'them'} first: ${first}; then ${agentCommand(place, `config set analyzer ${kind}`)}`,
      },
    );
  }
  throw new UsageError(
    `analyzer ${kind} needs ${key}: without it every poll (cron's too) would fail; nothing was changed`,
    {
      hint: `give it another value (${agentCommand(place, `config set ${key} ${PLACEHOLDERS[key] ?? '<value>'}`)}), or switch the analyzer first: ${agentCommand(place, 'config set analyzer builtin')}`,
    },
  );
}

/** What may be printed of a stored value: an alert URL is a secret (a chat's webhook grants posting to it). */
function shownValue(key: SettingKey, value: Settings[SettingKey]): Settings[SettingKey] {
  return (key === 'alert.webhook' || key === 'alert.heartbeat') && typeof value === 'string' ? shownUrl(value) : value;
}

function overrideOf(key: SettingKey, ctx: Context): string | undefined {
  const name = ENV_OVERRIDES[key];
  return name && ctx.env[name] ? name : undefined;
}
