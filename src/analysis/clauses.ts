// A text cut into clauses, the unit negation, amounts and frames are read in, and each clause's place in
// its sentence: what a contrast concedes, and which clauses share a sentence.

/** A clause, and the word that concedes it when the sentence turns on a contrast. */
export interface Clause {
  text: string;
  /** `before "but"`, `after "despite"`: the clause is what the sentence grants, not what it says. */
  conceded?: string;
}

// A long text is not more bullish for being long; the cap bounds the work on hostile input.
const MAX_TEXT = 20_000;

/** "X but Y" weighs Y: what the sentence concedes counts this much. */
export const CONCEDED = 0.25;

// Clause breaks: sentence ends, line breaks and bullets, dashes (-, en, em), colons, ", " (not "10,000")
// and contrast words, because negation and amounts belong to one idea: "not bullish, but whales are buying".
// The break is captured: a contrast word also says which side of it the sentence means. A full stop
// after an abbreviation or an initial ("Mt. Gox", "U.S. regulators") ends no sentence. A break starts at
// the first space of a run: tried from each space of a long run, it would cost the run's length squared.
const CLAUSE_BREAK =
  /(,?(?<!\s)\s+(?:but(?!\s+also\b)|however|although|though|even though|while|whereas|despite|in spite of|even as)\s+|,\s+yet\s+|(?<=[.!?;:])(?<!\b(?:mt|inc|corp|co|ltd|vs|st|dr|mr|mrs|ms|jr|sr|approx|est|[a-z])\.)\s+|[\n\r|\u2022]+|(?<!\s)\s+[-\u2013\u2014]+\s+|,\s+)/i;
const SENTENCE_BREAK = /^(?:\s+|[\n\r|\u2022]+)$/;
const BUT = /^,?\s+(but|however|yet)\s+$/i;
const DESPITE = /^,?\s+(although|though|even though|despite|in spite of|even as)\s+$/i;
// A sentence that opens with a contrast concedes the one before it; one that opens with a concession
// concedes its own first clause.
const OPENS_BUT = /^(but|however|yet|still|nonetheless|nevertheless)\b,?\s*/i;
const OPENS_DESPITE = /^(despite|although|though|even though|in spite of|while|whilst)\b/i;

// Words inside a link's address ("/lawsuit-etf-rejected") or a handle ("@bitcoin_crash") were written by
// someone else and are not the author's words: they go before anything is read.
const LINK = /\b(?:https?:\/\/|www\.)\S*/gi;
const HANDLE = /(^|[\s(])(?:@|\/?[ur]\/)[\w-]+/gi;

export function readClauses(text: string): Clause[] {
  return clauseList(text).clauses;
}

/** The clauses, and for each the index of its sentence's first clause. */
export function clauseList(text: string): { clauses: Clause[]; sentenceOf: number[] } {
  const parts = text
    .slice(0, MAX_TEXT)
    .replace(/[\u2019\u2018`]/g, "'") // curly and back quotes: "don’t" reads as "don't"
    .replace(LINK, ' ')
    .replace(HANDLE, '$1')
    .split(CLAUSE_BREAK);
  const clauses: Clause[] = [];
  const sentenceOf: number[] = [];
  let sentenceStart = 0;
  let previousSentence = 0;
  for (let i = 0; i < parts.length; i += 2) {
    const separator = i === 0 ? '' : (parts[i - 1] ?? '');
    let body = (parts[i] ?? '').trim();
    if (body === '') continue;
    const newSentence = i === 0 || SENTENCE_BREAK.test(separator) || /[\n\r|\u2022]/.test(separator);
    if (newSentence) {
      previousSentence = sentenceStart;
      sentenceStart = clauses.length;
    }
    const but = BUT.exec(separator);
    if (but) concede(clauses, sentenceStart, clauses.length, `before "${(but[1] ?? '').toLowerCase()}"`);
    const opens = newSentence ? OPENS_BUT.exec(body) : null;
    if (opens && clauses.length > 0) {
      concede(clauses, previousSentence, sentenceStart, `before "${(opens[1] ?? '').toLowerCase()}"`);
      body = body.slice(opens[0].length).trim();
      if (body === '') continue;
    }
    const word = DESPITE.exec(separator)?.[1] ?? (newSentence ? OPENS_DESPITE.exec(body)?.[1] : undefined);
    clauses.push(word ? { text: body, conceded: `after "${word.toLowerCase()}"` } : { text: body });
    sentenceOf.push(sentenceStart);
  }
  return { clauses, sentenceOf };
}

function concede(clauses: Clause[], from: number, to: number, why: string): void {
  for (const clause of clauses.slice(from, to)) {
    if (clause.conceded === undefined) clause.conceded = why;
  }
}

export function splitClauses(text: string): string[] {
  return readClauses(text).map((c) => c.text);
}
