import { LIMITS, PROFILE_FIELDS, type Profile } from './profile.js';
import { UsageError } from '../errors.js';
import { oneLine } from '../output/sanitize.js';

// Every value is checked before any request, so a usage error (exit 2) always means nothing was sent.

export type ProfileFlags = Partial<Record<keyof Profile, string | undefined>>;

export const PROFILE_FLAG_NAMES: Record<keyof Profile, string> = {
  signal_method: '--signal-method',
  conviction_style: '--conviction-style',
  directional_bias: '--directional-bias',
  participation: '--participation',
};

const codePoints = (text: string) => Array.from(text).length;

/**
 * The name as the service will keep it, for good: compatibility forms made plain (NFKC: full-width letters,
 * a no-break or ideographic space) and the spaces around it dropped, as a prompt's answer is read. A stray
 * space from a script's quoting, or a lookalike, would otherwise be part of the name forever.
 */
export function plainName(name: string): string {
  return name.normalize('NFKC').trim();
}

/** `label` names the value as the user gave it: the flag, or the question's words. Checks a plainName. */
export function checkName(name: string, label = '--name'): string | undefined {
  const n = codePoints(name);
  if (n < LIMITS.nameMin || n > LIMITS.nameMax)
    return `${label} must be ${LIMITS.nameMin}-${LIMITS.nameMax} characters (got ${n})`;
  if (/[\u0000-\u001f\u007f]/.test(name)) return `${label} must not contain control characters`;
  // A zero-width character makes a name that reads as another one.
  if (/\p{Default_Ignorable_Code_Point}/u.test(name)) return `${label} must not contain invisible characters`;
  return undefined;
}

export function checkBio(bio: string): string | undefined {
  return codePoints(bio) > LIMITS.bioMax
    ? `--bio must be at most ${LIMITS.bioMax} characters (got ${codePoints(bio)})`
    : undefined;
}

export function checkAvatarUrl(raw: string): string | undefined {
  try {
    const url = new URL(raw);
    if (url.protocol === 'http:' || url.protocol === 'https:') return undefined;
  } catch {
    // reported below
  }
  return `--avatar-url must be an http(s) URL (got ${JSON.stringify(oneLine(raw, 80))})`;
}

export function checkProfileValue(
  field: keyof Profile,
  value: string,
  label = PROFILE_FLAG_NAMES[field],
): string | undefined {
  const allowed = PROFILE_FIELDS[field] as readonly string[];
  return allowed.includes(value)
    ? undefined
    : `${label} must be one of ${allowed.join(', ')} (got ${JSON.stringify(oneLine(value, 40))})`;
}

/** Throws one UsageError naming every problem, so the user fixes them all at once. */
export function failOn(problems: Array<string | undefined>): void {
  const found = problems.filter((p): p is string => p !== undefined);
  if (found.length) throw new UsageError(found.join('; '), { hint: 'nothing was sent' });
}

/** Profile fields given as flags, checked; fields not given are absent. */
export function profileFromFlags(flags: ProfileFlags): Partial<Profile> {
  const fields = Object.keys(PROFILE_FLAG_NAMES) as Array<keyof Profile>;
  failOn(
    fields.map((field) => {
      const value = flags[field];
      return value === undefined ? undefined : checkProfileValue(field, value);
    }),
  );
  const profile: Partial<Record<keyof Profile, string>> = {};
  for (const field of fields) if (flags[field] !== undefined) profile[field] = flags[field];
  return profile as Partial<Profile>;
}

/** The user's thread id, checked enough that it is clearly an id; it is always sent as one path segment. */
export function checkThreadId(id: string): string {
  const trimmed = id.trim();
  // `.` and `..` cannot be one URL path segment in any spelling (see pathSegment).
  if (
    !trimmed ||
    trimmed === '.' ||
    trimmed === '..' ||
    trimmed.length > 200 ||
    /[\u0000-\u001f\u007f]/.test(trimmed)
  ) {
    throw new UsageError(`not a thread id: ${JSON.stringify(oneLine(id, 60))}`, { hint: 'nothing was sent' });
  }
  return trimmed;
}
