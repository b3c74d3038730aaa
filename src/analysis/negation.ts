// Negation is read inside one clause only, and only close to the phrase: "not bullish",
// "withdrawals are no longer halted", "failed to break above", "hack rumours denied". Wider scopes
// were tried in the fixtures and negated phrases in the next idea of the same sentence.

const PRE_WORDS = 4;

const CUE = new RegExp(
  '\\b(?:' +
    [
      'not(?!\\s+only)',
      'no',
      'never',
      'nor',
      "(?:is|are|was|were|wo|do|does|did|has|have|had|ca|could|should|would)n't",
      'cannot',
      'without',
      'fail(?:s|ed)? to',
      'unable to',
      'den(?:y|ies|ied)',
      'rul(?:es|ed) out',
      'unlikely',
      'lack of',
      'absence of',
    ].join('|') +
    ')\\b',
  'i',
);

// After the phrase, only a verdict that follows at once ("…, rumours denied" is its own clause).
const AFTER = new RegExp(
  '^\\s*(?:(?:rumou?rs?|reports?|claims?|allegations?|speculation)\\s+)?' +
    '(?:(?:was|were|is|are|has been|have been|had been|been|now|officially|reportedly|quickly|later)\\s+){0,2}' +
    '(?:denied|debunked|false|fake|untrue|ruled out|averted|called off|cancell?ed|delayed|postponed|scrapped|' +
    'rejected|dismissed|fizzl(?:es|ed)|unconfirmed|' +
    "(?:(?:did|does|do|has|have)(?: not|n't)|never|failed to) (?:materiali[sz]ed?|happen(?:ed)?|arrived?))\\b",
  'i',
);

/** Whether the phrase `clause.slice(start, end)` is negated within its clause. */
export function isNegated(clause: string, start: number, end: number): boolean {
  const before = clause.slice(0, start).trimEnd().split(/\s+/).slice(-PRE_WORDS).join(' ');
  // The phrase itself is searched too: rules with gaps span "withdrawals are no longer halted".
  if (CUE.test(`${before} ${clause.slice(start, end)}`)) return true;
  return AFTER.test(clause.slice(end));
}
