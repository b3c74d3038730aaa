// JSON.parse itself copes with any nesting, but everything that walks the value afterwards (unwrapping,
// zod, JSON.stringify of an error body) recurses, and 20,000 levels overflow the stack. No answer of the
// service or of an analyzer needs more than a handful of levels, so a deeper one is refused up front.

/** Deeper than any real answer (a thread list wrapped twice is 5), far below what overflows. */
export const MAX_JSON_DEPTH = 64;

export type BoundedJson = { ok: true; value: unknown } | { ok: false; tooDeep: boolean };

export function parseBoundedJson(text: string, maxDepth = MAX_JSON_DEPTH): BoundedJson {
  if (nestingExceeds(text, maxDepth)) return { ok: false, tooDeep: true };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false, tooDeep: false };
  }
}

/** Brackets outside strings, counted in one pass without recursion; text that is not JSON is left to JSON.parse. */
export function nestingExceeds(text: string, maxDepth: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i += 1; // a backslash: the next character is escaped, whatever it is
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      depth += 1;
      if (depth > maxDepth) return true;
    } else if (c === 0x7d || c === 0x5d) depth -= 1;
  }
  return false;
}
