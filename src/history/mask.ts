import fs from 'node:fs';
import path from 'node:path';
import { type Context, stateStore } from '../context.js';
import type { HistoryRecord } from './record.js';

/**
 * Every string in a record masked, whatever field holds it: a service may echo the key as a thread id, a
 * cell or an error. String by string, not on the JSON text, whose syntax a key could otherwise straddle.
 */
export function maskRecord(record: HistoryRecord, redact: (text: string) => string): HistoryRecord {
  return maskStrings(record, redact) as HistoryRecord;
}

function maskStrings(value: unknown, redact: (text: string) => string): unknown {
  if (typeof value === 'string') return redact(value);
  if (Array.isArray(value)) return value.map((item) => maskStrings(item, redact));
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([name, item]) => [name, maskStrings(item, redact)]));
}

/**
 * Before the history is printed: every key this config dir has held, the one registered now and those
 * kept in `register --force` backups, is masked in what is printed from here on, and the records are
 * masked by the mask this returns before anything cuts them to a column's width (a cut key would no
 * longer be recognised). A history written by an older version, or by hand, may hold one in clear
 * (key-never-shown).
 */
export function maskKnownKeys(ctx: Context): (record: HistoryRecord) => HistoryRecord {
  const state = stateStore(ctx).read();
  if (state) ctx.output.addSecret(state.apiKey);
  for (const key of backupKeys(ctx.configDir)) ctx.output.addSecret(key);
  return (record) => maskRecord(record, (text) => ctx.output.redact(text));
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
