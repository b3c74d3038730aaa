// The built-in analyzer against the labelled corpus in test/fixtures/eval/: how often it posts on texts
// with a direction, how often a post points the labelled way, and how often it posts on texts without one.
import fs from 'node:fs';
import { analyzeThread, builtinAnalyzer, type Decision } from '../../src/analysis/index.js';
import { parseInput, PROTOCOL_VERSION } from '../../src/analysis/protocol.js';
import { PARTICIPATIONS, type Participation, type Profile } from '../../src/domain/profile.js';

export type Label = 'up' | 'down' | 'none';
/** `external`: a file given with --external, read whole. */
export type Part = 'tune' | 'held' | 'external';

export interface Entry {
  id: string;
  /** `held`: every 4th line of the file, kept aside; rules are tuned on `tune` only. */
  split: Part;
  family: string;
  label: Label;
  text: string;
  reason: string;
}

export interface Outcome {
  entry: Entry;
  participation: Participation;
  decision: Decision;
  /** +1 / -1 for a post, 0 for a skip. */
  direction: number;
  trace: string[];
  ms: number;
}

export interface Score {
  texts: number;
  directional: number;
  neutral: number;
  /** Posts on texts labelled up or down, whatever their sign. */
  postedDirectional: number;
  posts: number;
  /** Posts in the labelled direction. */
  right: number;
  /** Posts against the labelled direction (a post on a neutral text is not counted here). */
  wrongSign: number;
  neutralPosts: number;
}

export const HELD_EVERY = 4;
export const PROFILE_BASE = {
  signal_method: 'sentiment',
  conviction_style: 'moderate',
  directional_bias: 'neutral',
} as const;

export interface Targets {
  coverage: number;
  precision: number;
  wrongSignShare: number;
  neutralShare: number;
}

/** The corpus's targets, on its held-aside part at participation moderate. */
export const TARGETS: Targets = { coverage: 0.45, precision: 0.85, wrongSignShare: 0.05, neutralShare: 0.1 };

export function loadCorpus(file: string): Entry[] {
  const lines = fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '');
  return lines.map((line, index) => {
    const entry = JSON.parse(line) as Entry;
    // The split is part of the file, and checked against the rule that made it, so it cannot drift.
    const expected: Part = (index + 1) % HELD_EVERY === 0 ? 'held' : 'tune';
    if (entry.split !== expected)
      throw new Error(`${file}:${index + 1}: split is ${entry.split}, expected ${expected}`);
    if (!['up', 'down', 'none'].includes(entry.label)) throw new Error(`${file}:${index + 1}: label ${entry.label}`);
    if (!entry.family || !entry.text || !entry.reason)
      throw new Error(`${file}:${index + 1}: family, text and reason are required`);
    return entry;
  });
}

/**
 * One decision per text, through the path `agent analyze --stdin` takes: the protocol object is parsed,
 * then the built-in analyzer and the policy decide.
 */
export async function decideAll(entries: readonly Entry[], participation: Participation): Promise<Outcome[]> {
  const profile: Profile = { ...PROFILE_BASE, participation };
  const outcomes: Outcome[] = [];
  for (const entry of entries) {
    const input = parseInput({
      version: PROTOCOL_VERSION,
      thread: {
        id: entry.id,
        project_id: 'c/general',
        text: entry.text,
        timestamp: '2025-01-01T00:00:00Z',
        price_on_fetch: null,
        citations: [],
      },
      profile,
      cell: { name: 'general', typical_move_pct: 0.8 },
    });
    if ('error' in input) throw new Error(`${entry.id}: ${input.error}`);
    const started = performance.now();
    const { decision, trace } = await analyzeThread(builtinAnalyzer, input.thread, input.profile);
    const ms = performance.now() - started;
    const direction = decision.action === 'post' ? Math.sign(decision.conviction) : 0;
    outcomes.push({ entry, participation, decision, direction, trace, ms });
  }
  return outcomes;
}

export function score(outcomes: readonly Outcome[]): Score {
  const s: Score = {
    texts: 0,
    directional: 0,
    neutral: 0,
    postedDirectional: 0,
    posts: 0,
    right: 0,
    wrongSign: 0,
    neutralPosts: 0,
  };
  for (const { entry, direction } of outcomes) {
    s.texts += 1;
    const want = entry.label === 'up' ? 1 : entry.label === 'down' ? -1 : 0;
    if (want === 0) s.neutral += 1;
    else s.directional += 1;
    if (direction === 0) continue;
    s.posts += 1;
    if (want === 0) s.neutralPosts += 1;
    else {
      s.postedDirectional += 1;
      if (direction === want) s.right += 1;
      else s.wrongSign += 1;
    }
  }
  return s;
}

export const ratio = (n: number, d: number): number => (d === 0 ? Number.NaN : n / d);

export function meetsTargets(s: Score, targets: Targets = TARGETS): { ok: boolean; lines: string[] } {
  const checks: Array<[string, number, string, boolean]> = [
    [
      'coverage',
      ratio(s.postedDirectional, s.directional),
      `≥ ${pct(targets.coverage)}`,
      ratio(s.postedDirectional, s.directional) >= targets.coverage,
    ],
    [
      'post precision',
      ratio(s.right, s.posts),
      `≥ ${pct(targets.precision)}`,
      ratio(s.right, s.posts) >= targets.precision,
    ],
    [
      'wrong-sign posts',
      ratio(s.wrongSign, s.posts),
      `≤ ${pct(targets.wrongSignShare)} of posts`,
      ratio(s.wrongSign, s.posts) <= targets.wrongSignShare,
    ],
    [
      'posts on neutral texts',
      ratio(s.neutralPosts, s.neutral),
      `≤ ${pct(targets.neutralShare)} of them`,
      ratio(s.neutralPosts, s.neutral) <= targets.neutralShare,
    ],
  ];
  return {
    ok: checks.every(([, , , ok]) => ok),
    lines: checks.map(
      ([what, value, target, ok]) => `${ok ? 'ok  ' : 'MISS'} ${what} ${pct(value)} (target ${target})`,
    ),
  };
}

export function pct(x: number): string {
  return Number.isNaN(x) ? '-' : `${Math.round(x * 100)}%`;
}

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

export interface Evaluation {
  entries: Entry[];
  /** Every text under every participation level. */
  outcomes: Map<Participation, Outcome[]>;
}

export async function evaluate(entries: Entry[]): Promise<Evaluation> {
  const outcomes = new Map<Participation, Outcome[]>();
  for (const participation of PARTICIPATIONS) outcomes.set(participation, await decideAll(entries, participation));
  return { entries, outcomes };
}

export const inPart = (outcomes: readonly Outcome[], part: Part): Outcome[] =>
  outcomes.filter((o) => o.entry.split === part);
