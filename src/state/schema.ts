import * as z from 'zod/mini';

export const STATE_VERSION = 1;

const cursorSchema = z.object({ timestamp: z.string(), id: z.string() });

/**
 * What this agent did with each thread newer than the cursor, so that a thread is never posted on twice
 * (R2) although the cursor may stay behind it while an older thread still has to be retried (R1).
 * `posting` is written before the POST: found after a crash, it means "outcome unknown, do not post again",
 * and becomes `unknown`, as does a POST that got no readable answer.
 */
const journalEntrySchema = z.looseObject({
  ts: z.string(),
  status: z.enum(['posting', 'posted', 'unknown', 'skipped', 'failed']),
  tries: z.optional(z.number()),
  reason: z.optional(z.string()),
});
export type JournalEntry = z.infer<typeof journalEntrySchema>;

// Extra keys are kept (a later version may add some), but the three fields of the interface's state
// record and the origin the key belongs to must be there and well-formed.
export const stateSchema = z.looseObject({
  version: z.optional(z.number()),
  apiKey: z.string().check(z.minLength(1)),
  agentName: z.string(),
  cursor: z.nullable(cursorSchema),
  baseUrl: z.string().check(z.minLength(1)),
  rateLimitedUntil: z.optional(z.string()),
  journal: z.optional(z.record(z.string(), journalEntrySchema)),
});
export type State = z.infer<typeof stateSchema>;
