// The outcome of each post and skip, written once, when the price series could tell it (settle.ts): the
// realized 3-hour move, whether the post was right, and the samples that decided it, so that a price that
// looks wrong can be found. `history` and `stats` read these next to the history.
import type { HistoryKind } from '../domain/fate.js';
import { lineFile, readAllLines, readLinesBackward, type LineFile } from './private-lines.js';
import type { Sample } from './samples.js';

/** ~350-400 bytes an outcome: two files of 4 MiB hold ~20,000, months of posts and skips on most feeds. */
export const OUTCOMES_LIMIT_BYTES = 4 * 1024 * 1024;
/**
 * How far outcomes.jsonl grows past its limit while outcomes.1.jsonl still holds outcomes of the week
 * stats shows (settle.ts): 16 MiB, a week of ~5,000 decisions a day, before the busiest feed loses any.
 */
const OUTCOMES_MAX_FACTOR = 4;

export function outcomesFile(dir: string, limitBytes = OUTCOMES_LIMIT_BYTES): LineFile {
  return lineFile(dir, 'outcomes', limitBytes, OUTCOMES_MAX_FACTOR * limitBytes);
}

/** When a line of the outcomes file was written: an outcome's resolvedAt, a settle mark's time; else NaN. */
export function writtenAt(line: string): number {
  const outcome = parseOutcome(line);
  if (outcome) return Date.parse(outcome.resolvedAt);
  return parseSettled(line)?.at ?? Number.NaN;
}

export interface UsedSample {
  threadId: string;
  ts: string;
  price: number;
}

export interface OutcomeRecord {
  /** When it was resolved (the local clock). */
  resolvedAt: string;
  threadId: string;
  /** The history line's kind it settles: the outcome of a post, or of a skip (what it would have done). */
  kind: Decided;
  cell: string;
  /** The post's conviction; absent on a skip. */
  conviction?: number;
  /** Which analyzer decided, when the history says. */
  analyzer?: string;
  fallback?: boolean;
  /** When the post or skip was made (the history's ts). */
  decidedAt: string;
  /** The thread's own timestamp and price: t0 and p0. */
  thread?: { ts: string; price: number };
  /** % change of the cell's price over the 3 hours after the thread; null when it cannot be known. */
  move: number | null;
  /** Same sign as the conviction; null when flat, for a skip, and when unresolvable. */
  right: boolean | null;
  /** The price 3 hours after the thread (interpolated between two samples when two bracketed it). */
  price?: number;
  samples?: UsedSample[];
  /** Samples near 3 hours on left out as absurd prices, when there were any. */
  dropped?: UsedSample[];
  /** Why it can never be known, when it cannot. */
  unresolvable?: string;
}

export function usedSample(sample: Sample): UsedSample {
  return { threadId: sample.threadId, ts: new Date(sample.ms).toISOString(), price: sample.price };
}

export function outcomeLine(record: OutcomeRecord): string {
  return JSON.stringify(record);
}

/**
 * A settle's mark, after the outcomes it wrote: when it ran and how far the poll's walk had read. A
 * decision made before it that the prices up to there could tell was told then (settle.ts), so its outcome
 * rotated away later is never worked out and written again.
 */
export interface SettledMark {
  at: number;
  walkedMs: number;
}

export function settledLine(mark: SettledMark): string {
  return JSON.stringify({ settledAt: new Date(mark.at).toISOString(), walked: new Date(mark.walkedMs).toISOString() });
}

const SETTLED = /^\{"settledAt":"([^"]+)","walked":"([^"]+)"\}$/;

export function parseSettled(line: string): SettledMark | undefined {
  const match = SETTLED.exec(line);
  const at = Date.parse(match?.[1] ?? '');
  const walkedMs = Date.parse(match?.[2] ?? '');
  return Number.isFinite(at) && Number.isFinite(walkedMs) ? { at, walkedMs } : undefined;
}

/** A line of the outcomes file, checked by hand (stats reads months of them); undefined when it is not one. */
export function parseOutcome(line: string): OutcomeRecord | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const v = value as Record<string, unknown>;
  if (v.kind !== 'post' && v.kind !== 'skip') return undefined;
  for (const field of ['resolvedAt', 'threadId', 'cell', 'decidedAt'] as const)
    if (typeof v[field] !== 'string') return undefined;
  if (!Number.isFinite(Date.parse(v.decidedAt as string)) || !Number.isFinite(Date.parse(v.resolvedAt as string)))
    return undefined;
  if (v.move !== null && !isNumber(v.move)) return undefined;
  if (v.right !== null && typeof v.right !== 'boolean') return undefined;
  if (v.conviction !== undefined && !isNumber(v.conviction)) return undefined;
  if (v.kind === 'post' && v.move !== null && v.conviction === undefined) return undefined;
  for (const field of ['analyzer', 'unresolvable'] as const)
    if (v[field] !== undefined && typeof v[field] !== 'string') return undefined;
  if (v.fallback !== undefined && typeof v.fallback !== 'boolean') return undefined;
  if (v.price !== undefined && !isNumber(v.price)) return undefined;
  return v as unknown as OutcomeRecord;
}

/** A thread may be skipped by a poll and posted on by hand later: each has its own outcome. */
/** The history kinds that carry a decision, whose price move is settled. */
export type Decided = Extract<HistoryKind, 'post' | 'skip'>;

export function outcomeKey(kind: Decided, threadId: string): string {
  return `${kind}\n${threadId}`;
}

/**
 * Every outcome, by outcomeKey (the first written wins: an outcome is recorded once). With `since`, only
 * those resolved since then, read from the end (outcomes are appended in the order resolved, and a
 * decision is resolved after it was made): stats over a month need not parse months of them.
 */
export function readOutcomes(
  dir: string,
  since?: number,
): { outcomes: Map<string, OutcomeRecord>; unreadable: number } {
  const outcomes = new Map<string, OutcomeRecord>();
  let unreadable = 0;
  const take = (line: string, record: OutcomeRecord | undefined, first: boolean) => {
    if (!record) {
      if (!parseSettled(line)) unreadable += 1;
    } else if (first || !outcomes.has(outcomeKey(record.kind, record.threadId)))
      outcomes.set(outcomeKey(record.kind, record.threadId), record);
  };
  if (since === undefined) {
    for (const line of readAllLines(outcomesFile(dir))) take(line, parseOutcome(line), false);
    return { outcomes, unreadable };
  }
  readLinesBackward(outcomesFile(dir), (line) => {
    const record = parseOutcome(line);
    if (record && Date.parse(record.resolvedAt) < since) return false;
    // Read newest first: an older line of the same outcome replaces a newer one.
    take(line, record, true);
    return true;
  });
  return { outcomes, unreadable };
}

function isNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}
