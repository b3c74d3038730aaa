import fs from 'node:fs';
import path from 'node:path';
import type { Context } from '../context.js';
import { AGENTS_DIR } from '../domain/agent-name.js';
import { AgentError } from '../errors.js';
import { entrySettings, scheduledDirs } from '../schedule/cron.js';
import { readCrontab } from '../schedule/crontab-program.js';
import { timerInterval, UNIT_PREFIX, unitConfigDir, userUnitDir } from '../schedule/systemd.js';

/** An agent of this user, as `agent list` and `poll --watch --all` find it (not yet read: see row.ts). */
export interface FoundAgent {
  /** Absolute, as it was first found (the default dir, agents/<name>, or as a crontab line or unit names it). */
  configDir: string;
  /** `--agent <name>` reaches it: it is agents/<name> of the default dir. */
  agentName?: string;
  /** The crontab entry that polls it, every so many minutes (null: an interval this program does not write). */
  cron?: { every: number | null };
  /** Its systemd user timer, every so many minutes. */
  systemd?: { every: number | null };
}

/** The files that make a dir an agent's, whichever came first (a config set before the register, say). */
const AGENT_FILES = ['state.json', 'history.jsonl', 'config.json'];

/**
 * Every agent of this user, with no request sent: the default config dir (when it holds an agent's
 * files), each dir in its agents/, each config dir this program's crontab entries and systemd units
 * poll, and the dir chosen for this command (--config-dir, AGENT_CONFIG_DIR). One per real path, in that
 * order. `warn` hears what could not be read (a crontab that failed to list): the rest is still found.
 */
export async function findAgents(ctx: Context, warn: (message: string) => void): Promise<FoundAgent[]> {
  const found = new Map<string, FoundAgent>();
  const add = (configDir: string, extra: Partial<FoundAgent> = {}) => {
    const key = realPath(configDir);
    const known = found.get(key);
    if (!known) found.set(key, { configDir, ...extra });
    else {
      known.agentName ??= extra.agentName;
      known.cron ??= extra.cron;
      known.systemd ??= extra.systemd;
    }
  };
  const defaultDir = path.resolve((await ctx.defaultConfigDir?.()) ?? ctx.configDir);
  if (AGENT_FILES.some((file) => fs.existsSync(path.join(defaultDir, file)))) add(defaultDir);
  for (const name of subdirectories(path.join(defaultDir, AGENTS_DIR)))
    add(path.join(defaultDir, AGENTS_DIR, name), { agentName: name });
  for (const { configDir, every } of await cronDirs(ctx, warn)) add(configDir, { cron: { every } });
  for (const { configDir, every } of systemdDirs(ctx.env)) add(configDir, { systemd: { every } });
  if (ctx.configDirGiven) add(path.resolve(ctx.configDir), ctx.agentName ? { agentName: ctx.agentName } : {});
  return [...found.values()];
}

/** The same dir reached by two paths (a symbolic link, `..`) is one agent. */
function realPath(dir: string): string {
  try {
    return fs.realpathSync(dir);
  } catch {
    return path.resolve(dir);
  }
}

/** Its dirs, a link to a dir among them: `--agent <name>` reaches that agent through the link too. */
function subdirectories(dir: string): string[] {
  try {
    return fs
      .readdirSync(dir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() || (entry.isSymbolicLink() && isDirectory(path.join(dir, entry.name))))
      .map((entry) => entry.name)
      .sort();
  } catch {
    return [];
  }
}

function isDirectory(file: string): boolean {
  try {
    return fs.statSync(file).isDirectory();
  } catch {
    return false;
  }
}

async function cronDirs(
  ctx: Context,
  warn: (message: string) => void,
): Promise<Array<{ configDir: string; every: number | null }>> {
  if (!ctx.runProgram) return [];
  try {
    const table = (await readCrontab(ctx.runProgram, false)) ?? '';
    return scheduledDirs(table).map(({ configDir, entry }) => ({
      configDir,
      every: entrySettings(entry).every ?? null,
    }));
  } catch (error) {
    if (!(error instanceof AgentError)) throw error;
    warn(`agent: ${error.message}; agents scheduled there are not listed`);
    return [];
  }
}

function systemdDirs(env: Record<string, string | undefined>): Array<{ configDir: string; every: number | null }> {
  const dir = userUnitDir(env);
  if (!dir) return [];
  let names: string[];
  try {
    names = fs.readdirSync(dir).filter((name) => name.startsWith(UNIT_PREFIX) && name.endsWith('.service'));
  } catch {
    return [];
  }
  return names.sort().flatMap((name) => {
    const configDir = unitConfigDir(readIfThere(path.join(dir, name)) ?? '');
    if (configDir === undefined) return [];
    const timer = readIfThere(path.join(dir, name.replace(/\.service$/, '.timer')));
    // A service without its timer runs only when started by hand: not a schedule.
    return timer === undefined ? [] : [{ configDir, every: timerInterval(timer) ?? null }];
  });
}

function readIfThere(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}
