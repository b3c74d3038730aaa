// JSON.parse itself copes with any nesting, but everything that walks the value afterwards (unwrapping,
// zod, JSON.stringify of an error body) recurses, and 20,000 levels overflow the stack. No answer of the
// service or of an analyzer needs more than a handful of levels, so a deeper one is refused.

/** Deeper than any real answer (a thread list wrapped twice is 5), far below what overflows. */
export const MAX_JSON_DEPTH = 64;

export type BoundedJson = { ok: true; value: unknown } | { ok: false; tooDeep: boolean };

export function parseBoundedJson(text: string, maxDepth = MAX_JSON_DEPTH): BoundedJson {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, tooDeep: false };
  }
  return deeperThan(value, maxDepth) ? { ok: false, tooDeep: true } : { ok: true, value };
}

/**
 * Whether a parsed value nests more than `levels` arrays or objects. The value, not the text, is walked:
 * a loop over every character of every page cost a 500-thread poll ~3.6 MB of peak memory, and the walk
 * recurses no deeper than `levels` + 1 however deep the value goes.
 */
export function deeperThan(value: unknown, levels: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (levels === 0) return true;
  if (Array.isArray(value)) {
    for (const item of value) if (deeperThan(item, levels - 1)) return true;
    return false;
  }
  for (const key in value) if (deeperThan((value as Record<string, unknown>)[key], levels - 1)) return true;
  return false;
}
