import type { AnalyzerKind } from '../../analysis/types.js';
import type { Context } from '../../context.js';
import { type AgentPlace, agentCommand } from '../../output/command-hint.js';
import { StateError, UsageError } from '../../errors.js';
import {
  checkSettingName,
  SETTING_NAMES,
  SETTINGS,
  type SettingName,
  shownValue,
  settingSpec,
} from '../../settings/table.js';
import { readSettings, readSettingsForEdit, settingsFile, writeSettings } from '../../settings/settings-file.js';
import { shownPath } from '../../output/sanitize.js';

/** `agent config get [<setting>]`: stored values alone on stdout (for scripts); defaults and overrides noted. */
export async function runConfigGet(ctx: Context, rawName: string | undefined): Promise<void> {
  const settings = readSettings(ctx.configDir, ctx);
  const file = settingsFile(ctx.configDir);
  if (rawName !== undefined) {
    const name = checkSettingName(rawName);
    const value = settings[name];
    const override = overrideOf(name, ctx);
    if (value === undefined) ctx.output.warn(`${name} is not set (default: ${SETTINGS[name].shownDefault})`);
    if (override)
      ctx.output.warn(
        `${override}=${ctx.env[override]} is set in this environment and overrides it for runs that have it`,
      );
    const shown = value === undefined ? undefined : shownValue(name, value);
    if (shown !== undefined && shown !== value)
      ctx.output.warn(
        `${name} is a secret: only its scheme and host are shown (the whole URL is in ${shownPath(file)})`,
      );
    ctx.output.result(shown === undefined ? [] : String(shown), {
      key: name,
      value: shown ?? null,
      ...(shown !== value ? { masked: true } : {}),
      ...(override ? { overriddenBy: override } : {}),
    });
    return;
  }
  const width = Math.max(...SETTING_NAMES.map((name) => name.length));
  const lines = SETTING_NAMES.map((name) => {
    const value = settings[name];
    const override = overrideOf(name, ctx);
    const shown = value === undefined ? `${SETTINGS[name].shownDefault}  (default)` : String(shownValue(name, value));
    return `${name.padEnd(width)}  ${shown}${override ? `  (here ${override}=${ctx.env[override]} overrides it)` : ''}`;
  });
  const llmKey = ctx.env.AGENT_LLM_API_KEY
    ? 'from AGENT_LLM_API_KEY (never shown)'
    : settings['llm.key-file']
      ? `from ${shownPath(settings['llm.key-file'])} (never shown)`
      : 'none';
  ctx.output.result([...lines, `${'llm key'.padEnd(width)}  ${llmKey}`, '', `Settings file: ${shownPath(file)}`], {
    file,
    settings: Object.fromEntries(
      Object.entries(settings).map(([name, value]) => [name, shownValue(name as SettingName, value)]),
    ),
    overrides: Object.fromEntries(
      SETTING_NAMES.flatMap((name) => (overrideOf(name, ctx) ? [[name, overrideOf(name, ctx)]] : [])),
    ),
    llmKey: ctx.env.AGENT_LLM_API_KEY ? 'env' : settings['llm.key-file'] ? 'file' : 'none',
  });
}

/** `agent config set <setting> <value>`: checked as it will be used, then written atomically (mode 600). */
export async function runConfigSet(ctx: Context, rawName: string, rawValue: string): Promise<void> {
  const name = checkSettingName(rawName);
  // Said after the result, which is what was asked for.
  const notes: string[] = [];
  const value = settingSpec(name).parse(rawValue, { home: ctx.env.HOME, place: ctx, note: (line) => notes.push(line) });
  const next = { ...readSettingsForEdit(ctx.configDir), [name]: value };
  refuseUnusableAnalyzer(next, name, ctx);
  const file = writeSettings(ctx.configDir, next, ctx.user);
  // Stored; but a run reads the whole file, and one other bad value still stops it.
  try {
    readSettings(ctx.configDir, ctx);
  } catch (error) {
    if (error instanceof StateError) notes.push(`note: ${error.message}; ${error.hint ?? ''}`);
  }
  const shown = shownValue(name, value);
  ctx.output.result(`Set ${name} = ${shown} in ${shownPath(file)}`, { key: name, value: shown, file });
  for (const line of notes) ctx.output.warn(line);
}

/** `agent config unset <setting>`: back to the default. */
export async function runConfigUnset(ctx: Context, rawName: string): Promise<void> {
  const name = checkSettingName(rawName);
  const settings = readSettingsForEdit(ctx.configDir);
  const file = settingsFile(ctx.configDir);
  const removed = name in settings;
  if (removed) {
    const { [name]: _gone, ...rest } = settings;
    refuseUnusableAnalyzer(rest, name, ctx);
    writeSettings(ctx.configDir, rest, ctx.user);
  }
  ctx.output.result(removed ? `Unset ${name} (default: ${SETTINGS[name].shownDefault})` : `${name} was not set`, {
    key: name,
    removed,
    file,
  });
}

/** The settings each analyzer cannot run without, in config.json: cron's runs have no environment to fill a gap with. */
function needs(kind: AnalyzerKind): SettingName[] {
  return SETTING_NAMES.filter((name) => SETTINGS[name].feature === kind && settingSpec(name).required);
}

/**
 * Settings that choose an analyzer without what it needs would fail every poll, cron's included, until
 * someone noticed, while the threads aged: such a change (`name` set or unset) is refused, saying what to
 * set first, and nothing is written.
 */
function refuseUnusableAnalyzer(next: Record<string, unknown>, name: SettingName, place: AgentPlace): void {
  const kind = next.analyzer as AnalyzerKind | undefined;
  const missing = (kind && needs(kind).filter((need) => !next[need])) || [];
  // A change that leaves the analyzer no worse than it was (setting one of two missing values) goes on.
  if (missing.length === 0 || (name !== 'analyzer' && !missing.includes(name))) return;
  const names = missing.join(' and ');
  if (name === 'analyzer') {
    const first = missing
      .map((need) => agentCommand(place, `config set ${need} ${settingSpec(need).required?.placeholder}`))
      .join(', then ');
    throw new UsageError(
      `${names} ${missing.length === 1 ? 'is' : 'are'} not set: with analyzer ${kind}, every poll (cron's too) would fail; nothing was changed`,
      {
        hint: `set ${missing.length === 1 ? 'it' : 'them'} first: ${first}; then ${agentCommand(place, `config set analyzer ${kind}`)}`,
      },
    );
  }
  throw new UsageError(
    `analyzer ${kind} needs ${name}: without it every poll (cron's too) would fail; nothing was changed`,
    {
      hint: `give it another value (${agentCommand(place, `config set ${name} ${settingSpec(name).required?.placeholder ?? '<value>'}`)}), or switch the analyzer first: ${agentCommand(place, 'config set analyzer builtin')}`,
    },
  );
}

/** The env var that replaces `name` for this run, if one is set here (a secret one, the model's name, is told apart). */
function overrideOf(name: SettingName, ctx: Context): string | undefined {
  const envVar = settingSpec(name).envVar;
  return envVar && !envVar.secret && ctx.env[envVar.name] ? envVar.name : undefined;
}
