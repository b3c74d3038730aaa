import * as z from 'zod/mini';

/** The service's counters at one moment: what stats draws over time. */
const countersSchema = z.object({ honey: z.number(), wax: z.number(), predictions: z.number() });

/** One run, summed up: what `doctor` reads for "the last poll" and `stats` for skips and failures. */
const summarySchema = z.looseObject({
  command: z.enum(['poll', 'predict']),
  posted: z.number(),
  skipped: z.number(),
  failed: z.number(),
  /** Threads met already locked: counted here, not one record each (a long gap meets thousands). */
  locked: z.optional(z.number()),
  exitCode: z.number(),
  elapsedMs: z.number(),
  error: z.optional(z.string()),
  counters: z.optional(countersSchema),
});

/**
 * One line of the history: a post, a skip (with its reason), a failure (with its error), or a run's
 * summary. Lines written by a later version may carry more fields; they are kept.
 */
export const historyRecordSchema = z.looseObject({
  ts: z.iso.datetime({ offset: true }),
  kind: z.enum(['post', 'skip', 'fail', 'run']),
  threadId: z.optional(z.string()),
  cell: z.optional(z.string()),
  conviction: z.optional(z.number()),
  text: z.optional(z.string()),
  reason: z.optional(z.string()),
  summary: z.optional(summarySchema),
});

export type HistoryRecord = z.output<typeof historyRecordSchema>;
export type RunSummary = z.output<typeof summarySchema>;
export type Counters = z.output<typeof countersSchema>;
