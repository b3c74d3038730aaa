import path from 'node:path';
import { writePrivateFile } from '../state/private-file.js';
import { readRegularFile } from '../state/regular-file.js';

/** What was sent, so that each alert goes out once per change of state, never every run. */
export const MEMORY_FILE = 'alerts.json';

/** Each entry: the condition an alert was sent for, and when; absent once it is over (or never was). */
export interface AlertMemory {
  /** `lastFailedAt`: the newest failed poll after the alert (absent in files written before it was kept). */
  failing?: { since: string; sentAt: string; lastFailedAt?: string };
  quiet?: { since: string; sentAt: string };
  /** The pause (its end) an alert was sent for: one alert per pause. */
  paused?: { until: string; sentAt: string };
}

/**
 * The memory in the config dir; empty when there is none. One that cannot be parsed (cut short by a full
 * disk, edited by hand) is empty too: at worst an alert is sent once more, while refusing would silence
 * every later one. Something other than a regular file there is an error (`readRegularFile`).
 */
export function readMemory(configDir: string): AlertMemory {
  const found = readRegularFile(path.join(configDir, MEMORY_FILE), 'the alert memory');
  if (!found) return {};
  let json: unknown;
  try {
    json = JSON.parse(found.text);
  } catch {
    return {};
  }
  if (!isObject(json)) return {};
  const memory: AlertMemory = {};
  const failing = entry(json.failing, 'since');
  const quiet = entry(json.quiet, 'since');
  const paused = entry(json.paused, 'until');
  if (failing) {
    const lastFailedAt = isObject(json.failing) ? json.failing.lastFailedAt : undefined;
    memory.failing =
      typeof lastFailedAt === 'string' && Number.isFinite(Date.parse(lastFailedAt))
        ? { ...failing, lastFailedAt }
        : failing;
  }
  if (quiet) memory.quiet = quiet;
  if (paused) memory.paused = paused;
  return memory;
}

/** Atomic and mode 600 from creation, like every file of the config dir; `confirm`: the run's lock fence. */
export function writeMemory(configDir: string, memory: AlertMemory, confirm?: () => void): void {
  writePrivateFile(path.join(configDir, MEMORY_FILE), `${JSON.stringify(memory)}\n`, {
    beforeRename: confirm,
    afterRename: confirm,
  });
}

function entry<K extends 'since' | 'until'>(
  value: unknown,
  key: K,
): ({ [P in K]: string } & { sentAt: string }) | undefined {
  if (!isObject(value)) return undefined;
  const at = value[key];
  if (typeof at !== 'string' || typeof value.sentAt !== 'string') return undefined;
  if (!Number.isFinite(Date.parse(at)) || !Number.isFinite(Date.parse(value.sentAt))) return undefined;
  return { [key]: at, sentAt: value.sentAt } as { [P in K]: string } & { sentAt: string };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
