import type { Context } from '../context.js';
import { stateStore } from '../session.js';
import type { HistoryEntry } from '../history/entry.js';
import { type OutcomeRecord, outcomeKey, readOutcomes } from './outcomes.js';

// How `agent history` shows what became of each post and skip: beside the entry, from the outcomes file.

export type Outcomes = Map<string, OutcomeRecord>;

/**
 * The outcomes recorded in the config dir (with `since`, those resolved since then); a file that cannot
 * be read is said, and shows as none.
 */
export function loadOutcomes(ctx: Context, since?: number): Outcomes {
  try {
    const { outcomes, unreadable } = readOutcomes(stateStore(ctx).dir, since);
    if (unreadable) ctx.output.warn(`agent: ${unreadable} outcome line(s) could not be read and were left out`);
    return outcomes;
  } catch (error) {
    const why = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    ctx.output.warn(`agent: the outcomes could not be read (${why}); shown without them`);
    return new Map();
  }
}

/** The `outcome` of a post or skip in `history --json` (docs/cli.md), absent while pending. */
export interface OutcomeView {
  move: number | null;
  right: boolean | null;
  resolvedAt: string;
  /** The thread's price (p0) and the price 3 hours on (p3h), and the samples that gave p3h. */
  price0?: number;
  price3h?: number;
  samples?: OutcomeRecord['samples'];
  /** Prices near 3 hours on left out as absurd. */
  dropped?: OutcomeRecord['dropped'];
  unresolvable?: string;
}

export function outcomeOf(record: HistoryEntry, outcomes: Outcomes): OutcomeView | undefined {
  if ((record.kind !== 'post' && record.kind !== 'skip') || !record.threadId) return undefined;
  const outcome = outcomes.get(outcomeKey(record.kind, record.threadId));
  if (!outcome) return undefined;
  if (outcome.move === null)
    return { move: null, right: null, resolvedAt: outcome.resolvedAt, unresolvable: outcome.unresolvable ?? '' };
  return {
    move: outcome.move,
    right: outcome.right,
    resolvedAt: outcome.resolvedAt,
    ...(outcome.thread ? { price0: outcome.thread.price } : {}),
    ...(outcome.price !== undefined ? { price3h: outcome.price } : {}),
    ...(outcome.samples ? { samples: outcome.samples } : {}),
    ...(outcome.dropped ? { dropped: outcome.dropped } : {}),
  };
}

/** The entry as `history --json` gives it: with its outcome once there is one. */
export function withOutcome(record: HistoryEntry, outcomes: Outcomes): HistoryEntry & { outcome?: OutcomeView } {
  const outcome = outcomeOf(record, outcomes);
  return outcome ? { ...record, outcome } : record;
}

/** Width of the column `outcomeColumn` fills, so the entries' text still lines up. */
export const OUTCOME_WIDTH = 10;

/**
 * Beside a post: the realized move and ✓ (right), ✗ (wrong), · (flat), … while pending, or "no price"
 * when it can never be known. Beside a skip: what the thread's cell did, in brackets.
 */
export function outcomeColumn(record: HistoryEntry, outcomes: Outcomes): string {
  if (record.kind !== 'post' && record.kind !== 'skip') return ''.padStart(OUTCOME_WIDTH);
  const outcome = outcomeOf(record, outcomes);
  if (!outcome) return (record.kind === 'post' ? '\u2026' : '').padStart(OUTCOME_WIDTH);
  if (outcome.move === null) return 'no price'.padStart(OUTCOME_WIDTH);
  const move = shortMove(outcome.move);
  if (record.kind === 'skip') return `(${move})`.padStart(OUTCOME_WIDTH);
  const mark = outcome.right === null ? '\u00b7' : outcome.right ? '\u2713' : '\u2717';
  return `${move} ${mark}`.padStart(OUTCOME_WIDTH);
}

/** The longest move `shortMove` writes: "+99.99%", "-123.5%", "+4568%", ">+9999%". */
const MOVE_CHARS = 7;

/**
 * A move in at most MOVE_CHARS characters, with as many decimals as fit, so that a service's price jump
 * of any size keeps the column (its exact value is in `history --json`).
 */
function shortMove(move: number): string {
  const sign = move > 0 ? '+' : '';
  for (const decimals of [2, 1, 0]) {
    const text = `${sign}${move.toFixed(decimals)}%`;
    if (text.length <= MOVE_CHARS) return text;
  }
  return move > 0 ? '>+9999%' : '<-9999%';
}
