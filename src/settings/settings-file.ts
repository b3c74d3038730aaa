import { lstatSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import * as z from 'zod/mini';
import { StateError } from '../errors.js';
import { type AgentPlace, agentCommand } from '../output/command-hint.js';
import type { RunningUser } from '../state/owner.js';
import {
  DIR_MODE,
  FILE_MODE,
  fileSystemError,
  preparePrivateDir,
  refuseLooseMode,
  writePrivateFile,
} from '../state/private-file.js';
import { SETTING_NAMES, SETTINGS, type SettingName, type Settings } from './table.js';
import { shownPath } from '../output/sanitize.js';

// config.json: the analyzer and alert settings, apart from the state file (docs/cli.md) so that changing the analyzer
// never rewrites the key. Private like the state: every cron run executes the command it names.

const RISK = 'change which command every run executes';

/** Built from the settings table: a name this version does not know is kept as it is, unchecked. */
function settingsSchema() {
  return z.looseObject(
    Object.fromEntries(SETTING_NAMES.map((name) => [name, z.optional(SETTINGS[name].schema)])) as {
      [N in SettingName]: z.ZodMiniOptional<(typeof SETTINGS)[N]['schema']>;
    },
  );
}

export function settingsFile(configDir: string): string {
  return join(configDir, 'config.json');
}

/**
 * The stored settings; none when the file does not exist. Corrupt or exposed settings are an error, whose
 * hint names the agent at `place` (the config dir, when it was chosen).
 */
export function readSettings(configDir: string, place?: AgentPlace): Settings {
  const file = settingsFile(configDir);
  const json = readSettingsForEdit(configDir);
  const result = settingsSchema().safeParse(json);
  if (!result.success) {
    const issue = result.error.issues[0];
    const name = String(issue?.path[0] ?? '');
    throw new StateError(
      `the settings file ${shownPath(file)} is not valid (${name || 'root'}: ${issue?.message})`,
      'corrupt',
      {
        hint: name
          ? `fix it: ${agentCommand(place, `config set ${name} <value>`)}, or ${agentCommand(place, `config unset ${name}`)}`
          : `move it away to start from the defaults: mv '${file}' '${file}.bad'`,
      },
    );
  }
  return result.data as Settings;
}

/**
 * For `config set/unset`: the stored object even when a value in it is invalid, so that the command the
 * error message suggests can repair it. A file that is not a JSON object still has to be moved away.
 */
export function readSettingsForEdit(configDir: string): Record<string, unknown> {
  const file = settingsFile(configDir);
  let raw: string;
  try {
    const stat = lstatSync(file);
    if (!stat.isFile())
      throw new StateError(`${shownPath(file)} is not a regular file`, 'exposed', { hint: 'move it away' });
    refuseLooseMode(configDir, statSync(configDir), DIR_MODE, 'the config directory', RISK);
    refuseLooseMode(file, stat, FILE_MODE, 'the settings file', RISK);
    raw = readFileSync(file, 'utf8');
  } catch (error) {
    if (error instanceof StateError) throw error;
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw fileSystemError('read the settings file', file, error);
  }
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    json = undefined;
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw new StateError(`the settings file ${shownPath(file)} is not a JSON object`, 'corrupt', {
      hint: `move it away to start from the defaults: mv '${file}' '${file}.bad'`,
    });
  }
  return json as Record<string, unknown>;
}

/** Atomic, mode 600 from creation; settings this version does not know are kept as they were. */
export function writeSettings(
  configDir: string,
  settings: Settings | Record<string, unknown>,
  user?: RunningUser,
): string {
  preparePrivateDir(configDir, undefined, user);
  const file = settingsFile(configDir);
  writePrivateFile(file, `${JSON.stringify(settings, null, 2)}\n`);
  return file;
}
