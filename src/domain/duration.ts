import { UsageError } from '../errors.js';
import { oneLine } from '../output/sanitize.js';

const UNIT_MS = { m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** `30m`, `12h`, `7d`: a whole number of minutes, hours or days, in milliseconds. */
export function parseDuration(raw: string, flag: string): number {
  const match = /^(\d{1,5})([mhd])$/.exec(raw.trim());
  const n = Number(match?.[1]);
  if (!match || n < 1) {
    throw new UsageError(`${flag} must be a duration such as 30m, 12h or 7d (got ${JSON.stringify(oneLine(raw, 20))})`);
  }
  return n * UNIT_MS[match[2] as keyof typeof UNIT_MS];
}

/** How long ago, as a person reads it: "just now", "12 min ago", "5 h ago", "3 days ago". */
export function describeAgo(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  if (minutes < 1) return 'just now';
  if (minutes < 120) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  return hours < 48 ? `${hours} h ago` : `${Math.round(hours / 24)} days ago`;
}
