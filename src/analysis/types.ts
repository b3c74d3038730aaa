import type { Profile } from '../domain/profile.js';
import type { Skip } from '../domain/skip.js';
import type { Thread } from '../domain/thread.js';

/** A phrase the analyzer found, with its signed contribution to strength. */
export interface Evidence {
  phrase: string;
  weight: number;
}

/** How bullish (+) or bearish (-) a text reads, in [-1, 1], and why. */
export interface Signal {
  kind: 'signal';
  strength: number;
  evidence: Evidence[];
}

/** What to do with a thread once the policy has had its say: a skip carries its kind (src/domain/skip.ts). */
export type Decision = ({ action: 'skip' } & Skip) | Post;
type Post = { action: 'post'; conviction: number; text: string };

/** An analyzer's own decision, before the policy checks it: a skip in its own words, without a kind. */
export type AnalyzerDecision = { action: 'skip'; reason: string } | Post;

/** An analyzer may return a signal (the policy sizes it) or a full decision (the policy checks it). */
export type AnalyzerOutput = (Signal | ({ kind: 'decision' } & AnalyzerDecision)) & {
  /** Set by a wrapper that knows better than the analyzer's name: the fallback, when it decided. */
  decidedBy?: DecidedBy;
};

/** Which analyzer decided, as the history records it; `fallback` when the configured one had failed. */
export interface DecidedBy {
  analyzer: AnalyzerKind;
  fallback?: true;
}

/**
 * Reads one thread. An analyzer that cannot answer (timeout, crash, garbage) throws an AnalyzerError;
 * it never returns something it made up.
 */
export interface Analyzer {
  readonly name: string;
  analyze(thread: Thread, profile: Profile, trace: Trace): Promise<AnalyzerOutput>;
  /** Releases what it holds (sockets), so the process can exit at once. */
  close?(): Promise<void>;
}

export const ANALYZER_KINDS = ['builtin', 'command', 'llm'] as const;
export type AnalyzerKind = (typeof ANALYZER_KINDS)[number];

/** Each step of a decision appends one human-readable line; `--verbose` prints them, tests assert on them. */
export type Trace = string[];
