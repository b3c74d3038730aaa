import { lstatSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import * as z from 'zod/mini';
import { ANALYZER_KINDS } from '../analysis/types.js';
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
import { FALLBACKS, MAX_TIMEOUT_S, type Settings } from './keys.js';
import { shownPath } from '../output/sanitize.js';

// config.json: the analyzer and alert settings, apart from the state file (docs/cli.md) so that changing the analyzer
// never rewrites the key. Private like the state: every cron run executes the command it names.

const RISK = 'change which command every run executes';

function settingsSchema() {
  return z.looseObject({
    analyzer: z.optional(z.enum(ANALYZER_KINDS)),
    'analyzer.command': z.optional(z.string().check(z.minLength(1))),
    'analyzer.timeout': z.optional(z.number().check(z.gte(0.1), z.lte(MAX_TIMEOUT_S))),
    'analyzer.fallback': z.optional(z.enum(FALLBACKS)),
    'llm.base-url': z.optional(z.string().check(z.minLength(1))),
    'llm.model': z.optional(z.string().check(z.minLength(1))),
    'llm.key-file': z.optional(z.string().check(z.minLength(1))),
    'alert.command': z.optional(z.string().check(z.minLength(1))),
    'alert.webhook': z.optional(z.string().check(z.minLength(1))),
    'alert.heartbeat': z.optional(z.string().check(z.minLength(1))),
  });
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
    const key = String(issue?.path[0] ?? '');
    throw new StateError(
      `the settings file ${shownPath(file)} is not valid (${key || 'root'}: ${issue?.message})`,
      'corrupt',
      {
        hint: key
          ? `fix it: ${agentCommand(place, `config set ${key} <value>`)}, or ${agentCommand(place, `config unset ${key}`)}`
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

/** Atomic, mode 600 from creation; keys this version does not know are kept as they were. */
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
