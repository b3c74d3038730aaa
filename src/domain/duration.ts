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
