import { compilePattern } from './compile-pattern.js';
import { wordsBefore } from './nearby-words.js';
// Negation is read inside one clause only, and only close to the phrase: "not bullish",
// "withdrawals are no longer halted", "failed to break above", "hack rumours denied". Wider scopes
// were tried in the fixtures and negated phrases in the next idea of the same sentence.
//
// A lack or a need is a second kind: "still awaiting approval", "lacking clarity", "yet to ship". It
// says the good thing has not happened, which is not the same as its opposite having happened, so
// each rule says what a lack of it means (often nothing; for an approval, a delay). A request is a
// third: "seeking approval" is neither an approval nor a delay, and counts nothing.

const PRE_WORDS = 4;

export type NegationKind = 'negated' | 'lacking' | 'sought';

export interface Negation {
  kind: NegationKind;
  /** The words that negate, as written, for the trace. */
  cue: string;
}

const NOT = compilePattern(
  '\\b(?:' +
    [
      'not(?!\\s+only)',
      'no(?!\\s+(?:doubt|wonder)\\b)',
      // "never been more bullish" says the most of it, not its opposite; "never been less" stays negated.
      // "never seen BTC this bullish" is the same superlative, with the subject in between.
      'never(?!\\s+(?:been|felt|looked|seemed|was|were)\\s+(?:more|so|this)\\b)' +
        '(?!\\s+(?:seen|saw)\\s+(?:\\S+\\s+){0,2}(?:this|so|such)\\b)',
      'nor',
      "(?:is|are|was|were|wo|do|does|did|has|have|had|ca|could|should|would|ai)n't",
      // Social posts and news titles often drop the apostrophe: "it wont recover", "arent buying".
      '(?:isnt|arent|wasnt|werent|wont|dont|doesnt|didnt|hasnt|havent|hadnt|cant|couldnt|shouldnt|wouldnt|aint)',
      // "nobody is selling at these prices": the selling is what is denied; not "nobody saw this rally coming".
      'nobody(?=\\s+(?:is|are|was|were|wants? to|will|would|can|could)\\b)',
      // "nothing can stop bitcoin now": the stop is what is denied.
      'nothing (?:can|could|will|is going to)',
      'cannot',
      'fail(?:s|ed)? to',
      // "a failed breakout", "false breakout", "fake pump": the move named did not hold.
      '(?:failed|false|fake)(?=\\s+(?:break|rall|bounc|recover|pump|reclaim|retest|surg|rebound)\\w*)',
      'unable to',
      'den(?:y|ies|ied)',
      'rul(?:es|ed) out',
      'unlikely',
      // "bitcoin price ignores strong ETF inflows": the news did not move it. Not across "and": in "ignores
      // bad news and rallies" the rally is what happened.
      'ignor(?:es|ed|ing)(?![^,;]*\\band\\b)',
    ].join('|') +
    ')\\b',
  'i',
);

const LACK = compilePattern(
  '\\b(?:' +
    [
      'lack(?:s|ed|ing)?(?: of)?',
      'absence of',
      'without',
      'absent',
      '(?:still\\s+)?await(?:s|ed|ing)?',
      'yet to',
      'pending',
      '(?:still\\s+)?wait(?:s|ed|ing)? (?:for|on)',
      'needs?(?: to)?',
      'no sign of',
      'hold(?:s|ing)? off(?: on)?',
      'held off(?: on)?',
      'short of',
    ].join('|') +
    ')\\b',
  'i',
);

const SOUGHT = /\b(?:seek(?:s|ing)?|sought|appl(?:y|ies|ied|ying) for|ask(?:s|ed|ing)? for|request(?:s|ed|ing)?)\b/i;

// After the phrase, only a verdict that follows at once ("…, rumours denied" is its own clause).
const AFTER_NOT = compilePattern(
  '^\\s*(?:(?:rumou?rs?|reports?|claims?|allegations?|speculation)\\s+)?' +
    '(?:(?:was|were|is|are|has been|have been|had been|been|now|officially|reportedly|quickly|later)\\s+){0,2}' +
    '(?:denied|debunked|false|fake|untrue|ruled out|averted|called off|cancell?ed|delayed|postponed|scrapped|' +
    'rejected|dismissed|fizzl(?:es|ed)|unconfirmed|withdrawn|' +
    // "the bull cycle is over"; not "rally over the weekend", which has no verb before "over".
    "(?<=(?:is|are|was|were|'s)\\s+(?:(?:now|officially|probably|finally)\\s+)?)(?:over|done|finished)(?!\\s+(?:[$€£]\\s?)?\\d)|" +
    "(?:(?:did|does|do|has|have)(?: not|n't)|never|failed to) (?:materiali[sz]ed?|happen(?:ed)?|arrived?|come|came))\\b",
  'i',
);
const AFTER_LACK = compilePattern(
  '^\\s*(?:(?:that|which)\\s+)?(?:(?:remains?|remained|is|are|was|were|stays?|stayed|still)\\s+){1,2}' +
    '(?:elusive|missing|absent|lacking|pending|unclear|out of reach|nowhere in sight|a long way off|uncertain)\\b',
  'i',
);

/** Whether, and how, the phrase `clause.slice(start, end)` is negated within its clause. */
export function negationOf(clause: string, start: number, end: number): Negation | undefined {
  const before = wordsBefore(clause, start, PRE_WORDS);
  // The phrase itself is searched too: rules with gaps span "withdrawals are no longer halted".
  const around = `${before} ${clause.slice(start, end)}`;
  const after = clause.slice(end);
  const not = NOT.exec(around) ?? AFTER_NOT.exec(after);
  if (not) return { kind: 'negated', cue: not[0].trim() };
  const lack = LACK.exec(around) ?? AFTER_LACK.exec(after);
  if (lack) return { kind: 'lacking', cue: lack[0].trim() };
  const sought = SOUGHT.exec(around);
  if (sought) return { kind: 'sought', cue: sought[0] };
  return undefined;
}

/** Whether the phrase `clause.slice(start, end)` is negated within its clause, by a negation or a lack. */
export function isNegated(clause: string, start: number, end: number): boolean {
  return negationOf(clause, start, end) !== undefined;
}
