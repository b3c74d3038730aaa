import { lexicon, type LexiconRule } from './lexicon.js';
import { masks, type Mask } from './lexicon-masks.js';
import { mayMatch } from './pattern-needs.js';

// Finding the lexicon's phrases in a clause: which patterns can match at all (from the text each one
// needs), running those, and keeping the longest where matches overlap.

export interface Hit {
  rule: LexiconRule | Mask;
  order: number;
  start: number;
  end: number;
}

interface Entry {
  rule: LexiconRule | Mask;
  order: number;
  pattern: RegExp;
  /** What else the clause must contain, besides the text that made this entry a candidate. */
  rest: ReadonlyArray<readonly string[]>;
}

/** Every pattern, and which ones a clause can match at all, from the text each one needs. */
interface Table {
  entries: Entry[];
  /** The first two characters of each needed text (one, for a text of one) → that text, and the entries it is needed by. */
  byStart: Map<number, Array<{ text: string; entries: number[] }>>;
  /** Entries whose needs are unknown: always run. */
  always: number[];
}

const startKey = (text: string, at: number, length: number): number =>
  length === 1 ? text.charCodeAt(at) : text.charCodeAt(at) * 0x10000 + text.charCodeAt(at + 1) + 0x100000000;

let table: Table | undefined;

function phraseTable(): Table {
  if (table) return table;
  const built: Table = { entries: [], byStart: new Map(), always: [] };
  [...lexicon(), ...masks()].forEach((rule, order) => {
    rule.patterns.forEach((pattern, i) => {
      const needs = rule.needs[i];
      const k = built.entries.push({ rule, order, pattern, rest: needs?.slice(1) ?? [] }) - 1;
      if (needs === undefined) built.always.push(k);
      for (const text of needs?.[0] ?? []) {
        const key = startKey(text, 0, Math.min(2, text.length));
        const texts = built.byStart.get(key) ?? [];
        const known = texts.find((t) => t.text === text);
        if (known) known.entries.push(k);
        else built.byStart.set(key, [...texts, { text, entries: [k] }]);
      }
    });
  });
  table = built;
  return table;
}

/**
 * The longest phrase wins where matches overlap, so "short squeeze" is not also "liquidations",
 * "exchange withdrawals halted" is not also "exchange withdrawals", and the idiom "bear in mind" is
 * not also a bear.
 */
export function findHits(clause: string): Hit[] {
  const all: Hit[] = [];
  const { entries, byStart, always } = phraseTable();
  // A pattern is run only where the text it needs may be: one map lookup per position of the clause
  // replaces ~600 pattern runs, nearly all of which would find nothing (see pattern-needs.ts).
  const lower = clause.toLowerCase();
  const seen = new Uint8Array(entries.length);
  const candidates: number[] = [];
  const add = (k: number) => {
    if (seen[k] === 0) candidates.push(k);
    seen[k] = 1;
  };
  always.forEach(add);
  for (let i = 0; i < lower.length; i++) {
    for (let n = 1; n <= 2 && i + n <= lower.length; n++) {
      for (const { text, entries: needing } of byStart.get(startKey(lower, i, n)) ?? []) {
        if (text.length === n || lower.startsWith(text, i)) needing.forEach(add);
      }
    }
  }
  for (const k of candidates) {
    const entry = entries[k];
    if (!entry) continue;
    const { rule, order, pattern, rest } = entry;
    if (!mayMatch(rest, lower)) continue;
    // Most candidates still match nothing: test() allocates nothing, while matchAll clones the pattern
    // and makes an iterator. matchAll starts at lastIndex, hence the resets.
    pattern.lastIndex = 0;
    const found = pattern.test(clause);
    pattern.lastIndex = 0;
    if (!found) continue;
    for (const m of clause.matchAll(pattern)) {
      if (m[0].length === 0 || ('notAfter' in rule && rule.notAfter?.test(clause.slice(0, m.index)))) continue;
      all.push({ rule, order, start: m.index, end: m.index + m[0].length });
    }
  }
  all.sort((a, b) => b.end - b.start - (a.end - a.start) || a.start - b.start || a.order - b.order);
  const kept: Hit[] = [];
  for (const hit of all) {
    if (kept.every((k) => hit.end <= k.start || hit.start >= k.end)) kept.push(hit);
  }
  return kept.sort((a, b) => a.start - b.start);
}
