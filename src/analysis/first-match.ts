// Where one alternation would be too much for the regular-expression check (test/cost/regex-cost.test.ts)
// to clear, its alternatives are kept as separate patterns and matched together here.

/** The leftmost match of any of the patterns, as one alternation of them (in this order) would find it. */
export function firstMatch(patterns: readonly RegExp[], text: string): RegExpExecArray | null {
  let first: RegExpExecArray | null = null;
  for (const pattern of patterns) {
    const m = pattern.exec(text);
    if (m && (first === null || m.index < first.index)) first = m;
  }
  return first;
}
