import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

// The patterns recheck has cleared, remembered between runs of this checkout in node_modules/.cache (never
// committed: a fresh clone checks every pattern once). CI runs npm test under three Node majors, and the
// verdict does not depend on which: the second and third runs, and a developer's next run, check only the
// patterns that changed. A key holds everything the verdict depends on, so an upgrade of recheck or a
// change of its parameters checks everything again.

const FILE = path.resolve(import.meta.dirname, '../../node_modules/.cache/agent-regex-cost/cleared.json');

export interface Cleared {
  has(key: string): boolean;
  add(key: string): void;
  save(): void;
}

export function clearedBefore(): Cleared {
  let keys = new Set<string>();
  try {
    const saved: unknown = JSON.parse(readFileSync(FILE, 'utf8'));
    if (Array.isArray(saved) && saved.every((k) => typeof k === 'string')) keys = new Set(saved);
  } catch {
    // Nothing remembered yet (or a file this test cannot read): check everything.
  }
  return {
    has: (key) => keys.has(key),
    add: (key) => void keys.add(key),
    save: () => {
      mkdirSync(path.dirname(FILE), { recursive: true });
      writeFileSync(FILE, JSON.stringify([...keys].sort()));
    },
  };
}

export function recheckVersion(): string {
  const manifest = JSON.parse(
    readFileSync(path.resolve(import.meta.dirname, '../../node_modules/recheck/package.json'), 'utf8'),
  );
  return String(manifest.version);
}
