import fs from 'node:fs';
import path from 'node:path';
import { type Context, stateStore } from '../context.js';

/**
 * Before the history is printed: every key this config dir has held is masked in what follows, the one
 * registered now and those kept in `register --force` backups. A history written by an older version
 * (or by hand) may hold one in clear (key-never-shown).
 */
export function maskKnownKeys(ctx: Context): void {
  const state = stateStore(ctx).read();
  if (state) ctx.output.addSecret(state.apiKey);
  for (const key of backupKeys(ctx.configDir)) ctx.output.addSecret(key);
}

function backupKeys(dir: string): string[] {
  let names: string[];
  try {
    names = fs.readdirSync(dir).filter((name) => /^state\.[0-9A-Za-z]+\.bak\.json$/.test(name));
  } catch {
    return [];
  }
  const keys: string[] = [];
  for (const name of names) {
    try {
      const key: unknown = JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8')).apiKey;
      if (typeof key === 'string') keys.push(key);
    } catch {
      // A backup that cannot be read holds no key this could find: nothing to mask.
    }
  }
  return keys;
}
