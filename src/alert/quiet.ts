import { SKIP_KINDS } from '../domain/skip.js';
import { skipKindOf } from '../history/entry.js';
import { readHistory } from '../history/log.js';
import type { Posting } from './decide.js';

/** How long without a post, while threads come, before the agent counts as quiet. */
export const QUIET_AFTER_MS = 24 * 60 * 60_000;
/** The skip reasons an alert names, most frequent first. */
const TOP_REASONS = 3;

/**
 * Whether the agent posts, from its history. First the newest record that is a post or older than a day
 * (read back from the end, so an agent that posts costs a few lines): a post within the day means posting;
 * nothing that old means the history does not cover a day yet. Only then are the day's skips counted.
 */
export function postingOf(configDir: string, now: number): Posting {
  const dayAgo = now - QUIET_AFTER_MS;
  const [landmark] = readHistory(configDir, {
    limit: 1,
    keep: (record) => record.kind === 'post' || Date.parse(record.ts) <= dayAgo,
  }).records;
  if (!landmark) return { state: 'unknown' };
  if (Date.parse(landmark.ts) > dayAgo) return { state: 'posting' };
  const skips = readHistory(configDir, { since: dayAgo, keep: (record) => record.kind === 'skip' }).records;
  if (!skips.length) return { state: 'unknown' };
  const counts = new Map<string, number>();
  for (const skip of skips) {
    // By the skip's kind, in the words stats uses; an analyzer's own words (kind "other") by their wording.
    const skipKind = skipKindOf(skip);
    const kind = skipKind === 'other' ? reasonKind(skip.reason ?? '(no reason)') : SKIP_KINDS[skipKind];
    counts.set(kind, (counts.get(kind) ?? 0) + 1);
  }
  const reasons = [...counts]
    .map(([reason, count]) => ({ reason, count }))
    .sort((a, b) => b.count - a.count)
    .slice(0, TOP_REASONS);
  const since = landmark.kind === 'post' ? landmark.ts : new Date(dayAgo).toISOString();
  return { state: 'quiet', since, skipped: skips.length, reasons };
}

/**
 * A reason without the numbers of its one thread ("strength +0.12 is below the selective threshold 0.30"),
 * so that the same cause is counted once, not once per strength.
 */
export function reasonKind(reason: string): string {
  return reason
    .slice(0, parentheticalEnd(reason))
    .replace(/[+-]?\d+(?:\.\d+)?%?/g, 'N')
    .trim();
}

/** Where a closing "(…)" at the reason's end starts, spaces before it included; the length if none. */
function parentheticalEnd(reason: string): number {
  const text = reason.trimEnd();
  const open = text.lastIndexOf('(');
  if (!text.endsWith(')') || open === -1 || text.indexOf(')', open) !== text.length - 1) return reason.length;
  return text.slice(0, open).trimEnd().length;
}
