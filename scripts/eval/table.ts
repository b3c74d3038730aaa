// The eval's tables: one row per participation level or family, the same columns everywhere.
import { pct, ratio, type Outcome, type Score } from './run.js';

const COLUMNS = ['texts', 'coverage', 'precision', 'wrong-sign', 'neutral posts'];

/** One row: coverage, post precision, wrong-sign posts and posts on neutral texts, with their counts. */
export function row(name: string, s: Score): string[] {
  return [
    name,
    `${s.texts}`,
    `${pct(ratio(s.postedDirectional, s.directional))} ${s.postedDirectional}/${s.directional}`,
    `${pct(ratio(s.right, s.posts))} ${s.right}/${s.posts}`,
    `${s.wrongSign} (${pct(ratio(s.wrongSign, s.posts))})`,
    `${s.neutralPosts}/${s.neutral}`,
  ];
}

export function table(rows: string[][], first: string): string {
  const all = [[first, ...COLUMNS], ...rows];
  const widths = all[0]!.map((_, i) => Math.max(...all.map((r) => (r[i] ?? '').length)));
  return all
    .map((r) => r.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  '))
    .join('\n');
}

export function byFamily(outcomes: readonly Outcome[]): Map<string, Outcome[]> {
  const families = new Map<string, Outcome[]>();
  for (const o of outcomes) families.set(o.entry.family, [...(families.get(o.entry.family) ?? []), o]);
  return families;
}
