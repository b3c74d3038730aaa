import * as z from 'zod/mini';
import { JOURNAL_STATUSES, type JournalStatus } from '../domain/fate.js';
import { isIsoInstant } from '../domain/instant.js';

export const STATE_VERSION = 1;

// Checked on every run, so without zod's datetime schema (see isIsoInstant). A cursor that is not a real
// instant would be compared as NaN, or as some other date, and bring back old threads or hide new ones.
const cursorSchema = z.object({
  timestamp: z.string().check(z.refine(isIsoInstant, { message: 'not an ISO 8601 date-time' })),
  id: z.string(),
});

/**
 * What this agent did with each thread newer than the cursor, so that a thread is never posted on twice
 * (never-twice) although the cursor may stay behind it while an older thread still has to be retried (no-thread-lost).
 * `posting` is written before the POST: found after a crash, it means "outcome unknown, do not post again",
 * and becomes `unknown`, as does a POST that got no readable answer. Extra keys are kept.
 */
export interface JournalEntry {
  /** The thread's own timestamp: where it stands relative to the cursor. */
  ts: string;
  /** The thread's fate, or the mark `posting` (src/domain/fate.ts). */
  status: JournalStatus;
  /** When this agent last wrote the entry: how long it is kept is measured from here, not from `ts`. */
  at?: string;
  tries?: number;
  reason?: string;
  [extra: string]: unknown;
}

/**
 * Keyed by thread id, which the service chooses: a Map, because an id such as `__proto__` used as a key
 * of a plain object sets its prototype instead of storing an entry, and that thread is posted again.
 */
export type Journal = Map<string, JournalEntry>;

/**
 * The journal keeps a week of posted threads (thousands of entries), and every cron run reads it:
 * zod/mini's record and object parsers took ~15 ms and ~7 MB of peak memory for 1,700 entries, this
 * loop well under a millisecond. The rules are those of the entry type above, checked whole.
 */
const journalSchema = z.pipe(
  z.custom<Record<string, JournalEntry>>().check(
    z.superRefine((journal, ctx) => {
      const problem = journalProblem(journal);
      if (problem) ctx.addIssue({ code: 'custom', message: problem.message, path: problem.path, input: journal });
    }),
  ),
  // JSON.parse keeps `__proto__` as an ordinary own key, and Object.entries reads it as one.
  z.transform((journal): Journal => new Map(Object.entries(journal))),
);

function journalProblem(journal: unknown): { path: string[]; message: string } | undefined {
  if (typeof journal !== 'object' || journal === null || Array.isArray(journal))
    return { path: [], message: 'expected an object' };
  for (const [id, entry] of Object.entries(journal)) {
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry))
      return { path: [id], message: 'expected an object' };
    const { ts, status, tries, reason, at } = entry as Record<string, unknown>;
    if (typeof ts !== 'string') return { path: [id, 'ts'], message: 'expected a string' };
    if (at !== undefined && typeof at !== 'string') return { path: [id, 'at'], message: 'expected a string' };
    if (!(JOURNAL_STATUSES as readonly unknown[]).includes(status))
      return { path: [id, 'status'], message: `expected one of ${JOURNAL_STATUSES.join(', ')}` };
    if (tries !== undefined && (typeof tries !== 'number' || !Number.isFinite(tries)))
      return { path: [id, 'tries'], message: 'expected a number' };
    if (reason !== undefined && typeof reason !== 'string')
      return { path: [id, 'reason'], message: 'expected a string' };
  }
  return undefined;
}

// Extra keys are kept (a later version may add some), but the three fields of the interface's state
// record and the origin the key belongs to must be there and well-formed.
export const stateSchema = z.looseObject({
  version: z.optional(z.number()),
  apiKey: z.string().check(z.minLength(1)),
  agentName: z.string(),
  cursor: z.nullable(cursorSchema),
  baseUrl: z.string().check(z.minLength(1)),
  rateLimitedUntil: z.optional(z.string()),
  /** When a poll last put the service's counters into the history (at most hourly). */
  historySnapshotAt: z.optional(z.string()),
  journal: z.optional(journalSchema),
});
export type State = z.output<typeof stateSchema>;
