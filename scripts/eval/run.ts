// The built-in analyzer against the labelled corpus in test/fixtures/eval/: how often it posts on texts
// with a direction, how often a post points the labelled way, and how often it posts on texts without one.
import fs from 'node:fs';
import path from 'node:path';
import { analyzeThread, builtinAnalyzer, type Decision } from '../../src/analysis/index.js';
import { parseInput, PROTOCOL_VERSION } from '../../src/analysis/protocol.js';
import { PARTICIPATIONS, type Participation, type Profile } from '../../src/domain/profile.js';

export type Label = 'up' | 'down' | 'none';
/** `external`: a file given with --external, read whole. */
export type Part = 'tune' | 'held' | 'external';

export interface Entry {
  id: string;
  /** The file it came from, by name: the corpora and an external file are scored apart. */
  source: string;
  /** `held`: kept aside (every 4th or every 2nd line, per corpus); rules are tuned on `tune` only. */
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

/** The first corpus's targets, on its held-aside part at participation moderate. */
export const TARGETS: Targets = { coverage: 0.45, precision: 0.85, wrongSignShare: 0.05, neutralShare: 0.1 };
/** On text written the way real text comes, and on text written outside the project. */
export const REAL_TEXT_TARGETS: Targets = { ...TARGETS, coverage: 0.4 };

export interface Corpus {
  /** From the repository's root. */
  file: string;
  heldEvery: number;
  title: string;
  targets: Targets;
}

export const CORPORA: readonly Corpus[] = [
  {
    file: 'test/fixtures/eval/corpus.jsonl',
    heldEvery: HELD_EVERY,
    title: "first corpus: crypto news in the rules' own phrasing",
    targets: TARGETS,
  },
  {
    // Written before the rules were changed for it: titles as wire services and crypto sites write them,
    // social posts with cashtags, irony, stances against the crowd and other people's views.
    file: 'test/fixtures/eval/headlines-and-posts.jsonl',
    heldEvery: 2,
    title: 'second corpus: headlines and posts as real text comes',
    targets: REAL_TEXT_TARGETS,
  },
];

export function loadCorpus(file: string, heldEvery = HELD_EVERY): Entry[] {
  const source = path.basename(file);
  const lines = fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '');
  return lines.map((line, index) => {
    const entry = { ...(JSON.parse(line) as Omit<Entry, 'source'>), source };
    // The split is part of the file, and checked against the rule that made it, so it cannot drift.
    const expected: Part = (index + 1) % heldEvery === 0 ? 'held' : 'tune';
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

/**
 * Post precision if neutral texts made up `neutralShare` of the set, at the same rates of posting: a file
 * two thirds neutral (the finance tweets) punishes a post on a neutral text twice as hard as a sample one
 * third neutral does.
 */
export function precisionAtMix(s: Score, neutralShare: number): number {
  const directional = 1 - neutralShare;
  const right = ratio(s.right, s.directional) * directional;
  const wrong = ratio(s.wrongSign, s.directional) * directional;
  const neutral = ratio(s.neutralPosts, s.neutral) * neutralShare;
  return ratio(right, right + wrong + neutral);
}

export function pct(x: number): string {
  return Number.isNaN(x) ? '-' : `${Math.round(x * 100)}%`;
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

/** The outcomes of one part of one file (of every file, without `source`). */
export const inPart = (outcomes: readonly Outcome[], part: Part, source?: string): Outcome[] =>
  outcomes.filter((o) => o.entry.split === part && (source === undefined || o.entry.source === source));
