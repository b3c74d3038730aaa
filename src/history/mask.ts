import fs from 'node:fs';
import path from 'node:path';
import type { Context } from '../context.js';
import { maskStrings } from '../output/secret-mask.js';
import type { HistoryEntry } from './entry.js';

export { maskStrings };

/**
 * Every string in a record masked, whatever field holds it: a service may echo the key as a thread id, a
 * cell or an error. String by string, not on the JSON text, whose syntax a key could otherwise straddle.
 */
export function maskEntry(record: HistoryEntry, redact: (text: string) => string): HistoryEntry {
  return maskStrings(record, redact);
}

/**
 * Before the history is printed: every key this config dir has held, the one registered now and those
 * kept in `register --force` backups, is masked in what is printed from here on, and what is shown is
 * masked by the mask this returns before anything cuts it to a column's width (a cut key would no longer
 * be recognised). A history written by an older version, or by hand, may hold one in clear
 * (key-never-shown).
 */
export function maskKnownKeys(ctx: Context): <T>(shown: T) => T {
  for (const key of knownKeys(ctx.configDir)) ctx.output.addSecret(key);
  return (shown) => maskStrings(shown, (text) => ctx.output.redact(text));
}

/**
 * The `apiKey` of the state and of its backups, taken from their JSON alone: only masked with, never
 * used, so the state's whole schema (a fifth of what stats costs over a month of history) is not needed.
 */
export function knownKeys(dir: string): string[] {
  let names: string[];
  try {
    names = fs
      .readdirSync(dir)
      .filter((name) => name === 'state.json' || /^state\.[0-9A-Za-z]+\.bak\.json$/.test(name));
  } catch {
    return [];
  }
  const keys: string[] = [];
  for (const name of names) {
    try {
      const key: unknown = JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8')).apiKey;
      if (typeof key === 'string') keys.push(key);
    } catch {
      // A file that cannot be read holds no key this could find: nothing to mask.
    }
  }
  return keys;
}
