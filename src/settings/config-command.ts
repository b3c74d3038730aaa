import { join, resolve } from 'node:path';
import type { Context } from '../context.js';
import { StateError, UsageError } from '../errors.js';
import {
  checkKey,
  parseAnalyzerKind,
  parseFallback,
  parseModel,
  parseTimeout,
  SETTING_DEFAULTS,
  type SettingKey,
  type Settings,
} from './keys.js';
import { readKeyFile } from './key-file.js';
import { parseLlmBaseUrl } from './llm-url.js';
import { readSettings, readSettingsForEdit, settingsFile, writeSettings } from './store.js';
import { checkCommandLine } from '../analysis/command/check.js';

/** The env var that overrides a setting per run (docs/cli.md), if any. */
const ENV_OVERRIDES: Partial<Record<SettingKey, string>> = {
  analyzer: 'AGENT_ANALYZER',
  'analyzer.command': 'AGENT_ANALYZER_COMMAND',
  'llm.base-url': 'AGENT_LLM_BASE_URL',
  'llm.model': 'AGENT_LLM_MODEL',
};

/** `agent config get [<key>]`: stored values alone on stdout (for scripts); defaults and overrides noted. */
export async function runConfigGet(rawKey: string | undefined, ctx: Context): Promise<void> {
  const settings = readSettings(ctx.configDir);
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
    ctx.output.result(value === undefined ? [] : String(value), {
      key,
      value: value ?? null,
      ...(override ? { overriddenBy: override } : {}),
    });
    return;
  }
  const width = Math.max(...Object.keys(SETTING_DEFAULTS).map((k) => k.length));
  const lines = (Object.keys(SETTING_DEFAULTS) as SettingKey[]).map((key) => {
    const value = settings[key];
    const override = overrideOf(key, ctx);
    const shown = value === undefined ? `${SETTING_DEFAULTS[key]}  (default)` : String(value);
    return `${key.padEnd(width)}  ${shown}${override ? `  (here ${override}=${ctx.env[override]} overrides it)` : ''}`;
  });
  const llmKey = ctx.env.AGENT_LLM_API_KEY
    ? 'from AGENT_LLM_API_KEY (never shown)'
    : settings['llm.key-file']
      ? `from ${settings['llm.key-file']} (never shown)`
      : 'none';
  ctx.output.result([...lines, `${'llm key'.padEnd(width)}  ${llmKey}`, '', `Settings file: ${file}`], {
    file,
    settings,
    overrides: Object.fromEntries(
      (Object.keys(ENV_OVERRIDES) as SettingKey[]).flatMap((key) =>
        overrideOf(key, ctx) ? [[key, overrideOf(key, ctx)]] : [],
      ),
    ),
    llmKey: ctx.env.AGENT_LLM_API_KEY ? 'env' : settings['llm.key-file'] ? 'file' : 'none',
  });
}

/** `agent config set <key> <value>`: checked as it will be used, then written atomically (mode 600). */
export async function runConfigSet(rawKey: string, rawValue: string, ctx: Context): Promise<void> {
  const key = checkKey(rawKey);
  const value = parseValue(key, rawValue, ctx);
  const next = { ...readSettingsForEdit(ctx.configDir), [key]: value };
  const file = writeSettings(ctx.configDir, next, ctx.user);
  for (const line of missingCompanions(next as Settings)) ctx.output.warn(line);
  // Stored; but a run reads the whole file, and one other bad value still stops it.
  try {
    readSettings(ctx.configDir);
  } catch (error) {
    if (error instanceof StateError) ctx.output.warn(`note: ${error.message}; ${error.hint ?? ''}`);
  }
  ctx.output.result(`Set ${key} = ${value} in ${file}`, { key, value, file });
}

/** `agent config unset <key>`: back to the default. */
export async function runConfigUnset(rawKey: string, ctx: Context): Promise<void> {
  const key = checkKey(rawKey);
  const settings = readSettingsForEdit(ctx.configDir);
  const file = settingsFile(ctx.configDir);
  const removed = key in settings;
  if (removed) {
    const { [key]: _gone, ...rest } = settings;
    writeSettings(ctx.configDir, rest, ctx.user);
  }
  ctx.output.result(removed ? `Unset ${key} (default: ${SETTING_DEFAULTS[key]})` : `${key} was not set`, {
    key,
    removed,
    file,
  });
}

function parseValue(key: SettingKey, raw: string, ctx: Context): Settings[SettingKey] {
  switch (key) {
    case 'analyzer':
      return parseAnalyzerKind(raw, 'analyzer');
    case 'analyzer.command':
      return checkCommandLine(raw, (line) => ctx.output.warn(line), { home: ctx.env.HOME });
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
    case 'llm.key-file': {
      // A key pasted here instead of a path must not be echoed back in an error message.
      if (!/^[~./]|[/\\]/.test(raw.trim())) {
        throw new UsageError('llm.key-file takes the path of a file that holds the key, not the key itself', {
          hint: 'e.g. agent config set llm.key-file ~/.config/agent-llm.key (mode 600), or set AGENT_LLM_API_KEY',
        });
      }
      // Stored absolute: cron runs from another directory. "~/" was not expanded when the path was quoted.
      const given = raw.trim();
      const file = given.startsWith('~/') && ctx.env.HOME ? join(ctx.env.HOME, given.slice(2)) : resolve(given);
      readKeyFile(file);
      return file;
    }
  }
}

/** After `config set analyzer llm`, say what else a run will need, before cron finds out. */
function missingCompanions(settings: Settings): string[] {
  if (settings.analyzer === 'command' && !settings['analyzer.command'])
    return ['Next: agent config set analyzer.command "<your command>"'];
  if (settings.analyzer !== 'llm') return [];
  return (['llm.base-url', 'llm.model'] as const)
    .filter((k) => !settings[k])
    .map((k) => `Next: agent config set ${k} <${k === 'llm.model' ? 'name' : 'url'}>`);
}

function overrideOf(key: SettingKey, ctx: Context): string | undefined {
  const name = ENV_OVERRIDES[key];
  return name && ctx.env[name] ? name : undefined;
}
