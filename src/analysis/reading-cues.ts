import { wordsAfter, wordsBefore } from './nearby-words.js';
// Cues around a phrase that change what it says about now: a past date or a recall word (the phrase
// tells an old story), a past tense on a stance (a view no longer held), quotation marks with a word
// of disbelief (the phrase is quoted to reject it) or of naming (it is mentioned, not used). Each
// returns the words that decided, so that the trace can quote them.

const RECALL_BEFORE_WORDS = 8;
const RECALL_AFTER_WORDS = 5;
const STANCE_BEFORE_WORDS = 6;
const STANCE_AFTER_WORDS = 5;

// "Two years after its hack", "the anniversary of the crash", "remember when withdrawals stopped"; not
// "its biggest gain in six years on a bet", where the years are a span.
const RECALL_BEFORE =
  /\b(?:(?<!\b(?:in|for|over|than) )(?:\w+|a) (?:years?|decades?) (?:after|on|later|since)|anniversary(?: of)?|remember(?:s|ed|ing)?(?: when| the)?|memor(?:y|ies) of|look(?:s|ing)? back(?: at| on)?|revisit(?:s|ed|ing)?|recall(?:s|ed|ing)?|retrospective|documentary|history of|lessons? (?:from|of)|case study|stud(?:y|ies|ied|ying) the|taught|(?<!\bat )once(?! (?:again|more)\b)|last year's|(?:years?|decades?) ago|rise and fall of)\b/i;
// "drained in 2022", "crashed 90% last year", "halted withdrawals years ago".
const RECALL_AFTER =
  /\b(?:(?:years?|decades?|months?) ago|(?<!since )last year|back in|in the past(?!\s+(?:few\s+|\d+\s+)?(?:minutes?|hours?|days?|sessions?|week)\b))\b/i;
// A year counts only when it is earlier than the thread's own: "since 2021" compares, it does not recall.
const YEAR = /(?<![$\d,.])(?<!since )(?<!since (?:early|late|mid) )\b(19[89]\d|20\d\d)\b(?![%\d])/g;

const PAST_STANCE =
  /\b(?:used to(?: be)?|once(?! (?:again|more)\b)|formerly|previously|long (?:a|an|the)|back in|at the time|had been|last (?:year|month|cycle|spring|summer|autumn|fall|winter|week)|years? ago|remember when)\b/i;
const WAS = /\b(?:was|were)\b/i;
// "was bearish" is a past stance only when the text says things have changed since.
const TURN = /\b(?:now|anymore|any more|no longer|today|these days|since then|until)\b/i;

// Quotation marks and how far each may reach: a scan, so that a text of unclosed quotes costs each quote
// its reach and no more (as a pattern, each quote's attempt was tried again inside the next's).
const QUOTES = [
  { open: '"', close: '"', reach: 80, apostrophe: false },
  { open: '\u201C', close: '\u201D', reach: 80, apostrophe: false },
  { open: "'", close: "'", reach: 60, apostrophe: true },
] as const;
const WORD = /\w/;
const SO_CALLED = /\bso[- ]called\s+["\u201C']?\s*(?:\w+\s+){0,1}$/i;
const MENTION =
  /\b(?:the (?:word|term|phrase|slogan|meme|hashtag)s?|(?:is|was|be|are) (?:called|named|titled)|titled|dubbed|what does|glossary|stands? for|means?|meaning)\b/i;
// '"Crypto is a scam" says the guy who sold the bottom': a quote pinned on someone to mock them is
// their view, not the author's, nor its opposite (the retort argues about the person, not the market).
// "Says the guy at the exchange" only reports who spoke.
const RETORT =
  /^["\u201D]?[\s,.!]*(?:says?|said)\s+(?:the\s+(?:same\s+)?(?:guy|guys|dude|person|people|man|woman|one|ones)\s+(?:who|that)|every(?:one|body)|no ?one|nobody)\b/i;
const REJECT =
  /\b(?:so[- ]called|call(?:s|ed|ing)? (?:it|this|that|them|the \w+)(?: an?)?|insists?|insisted|claims?|claimed|supposed(?:ly)?|promised|they said|spare me|hardly|(?:is )?a stretch|never came|turned out|did nothing|went nowhere|so much for|yeah right|lol|cope|hopium|another)\b/i;

function pastYear(words: string, year: number | undefined): string | undefined {
  if (year === undefined) return undefined;
  for (const m of words.matchAll(YEAR)) if (Number(m[1]) < year) return m[0];
  return undefined;
}

// A year before the phrase dates it when it names the event ("the 2014 hack", "2022's collapse") or opens
// the clause ("In 2022, …"); otherwise it belongs to an earlier verb ("halted in 2022 relaunches").
const YEAR_NAMES = /(?:^|\b(?:the|a|its|their|since the|of the|after the)\s+)(?:(?:19|20)\d\d)(?:'s)?(?:\s+\S+){0,3}$/i;
const YEAR_OPENS = /^(?:in|during|back in|since)\s+(?:19|20)\d\d\b/i;

/** The words that make the phrase at [start, end) an old story, if any. */
export function recallOf(clause: string, start: number, end: number, year: number | undefined): string | undefined {
  const before = wordsBefore(clause, start, RECALL_BEFORE_WORDS);
  const after = wordsAfter(clause, end, RECALL_AFTER_WORDS);
  const marker = RECALL_BEFORE.exec(before)?.[0] ?? RECALL_AFTER.exec(after)?.[0] ?? pastYear(after, year);
  if (marker) return marker;
  const dated = YEAR_NAMES.exec(before)?.[0] ?? YEAR_OPENS.exec(clause.slice(0, start))?.[0];
  return dated === undefined ? undefined : pastYear(dated, year);
}

/** The words that make the stance at [start, end) one held in the past, if any. */
export function pastStanceOf(
  clause: string,
  start: number,
  end: number,
  text: string,
  year: number | undefined,
): string | undefined {
  const around = `${wordsBefore(clause, start, STANCE_BEFORE_WORDS)} ${wordsAfter(clause, end, STANCE_AFTER_WORDS)}`;
  const marker = PAST_STANCE.exec(around)?.[0] ?? pastYear(around, year);
  if (marker) return marker;
  const was = WAS.exec(wordsBefore(clause, start, STANCE_BEFORE_WORDS));
  return was && TURN.test(text) ? was[0] : undefined;
}

export type QuoteUse = { kind: 'mention' | 'retort' | 'rejected'; cue: string };

/** Whether the phrase at [start, end) is quoted to name it or to reject it. */
export function quoteUseOf(clause: string, start: number, end: number): QuoteUse | undefined {
  const soCalled = SO_CALLED.exec(clause.slice(0, start));
  if (soCalled) return { kind: 'rejected', cue: 'so-called' };
  for (const quote of quotedSpans(clause)) {
    if (quote.start > start || quote.end < end) continue;
    const retort = RETORT.exec(clause.slice(quote.end));
    if (retort) return { kind: 'retort', cue: retort[0].replace(/^[^a-z]+/i, '') };
    const outside = `${clause.slice(0, quote.start)} ${clause.slice(quote.end)}`;
    const mention = MENTION.exec(outside);
    if (mention) return { kind: 'mention', cue: mention[0] };
    const reject = REJECT.exec(outside);
    if (reject) return { kind: 'rejected', cue: reject[0] };
  }
  return undefined;
}

/**
 * The quoted spans of a clause, quotes included, left to right and not overlapping: a quote closes at the
 * first closing mark within its reach on the same line, and an apostrophe opens and closes only outside a
 * word ("it's" quotes nothing).
 */
export function quotedSpans(clause: string): { start: number; end: number }[] {
  const spans: { start: number; end: number }[] = [];
  let at = 0;
  while (at < clause.length) {
    const found = closedAt(clause, at);
    if (found === undefined) at += 1;
    else {
      spans.push({ start: at, end: found + 1 });
      at = found + 1;
    }
  }
  return spans;
}

function closedAt(clause: string, at: number): number | undefined {
  const quote = QUOTES.find((q) => q.open === clause[at]);
  if (quote === undefined || (quote.apostrophe && WORD.test(clause[at - 1] ?? ''))) return undefined;
  const within = clause.slice(at + 1, at + 2 + quote.reach);
  const close = within.indexOf(quote.close);
  if (close < 1 || within.slice(0, close).includes('\n')) return undefined;
  const end = at + 1 + close;
  if (quote.apostrophe && WORD.test(clause[end + 1] ?? '')) return undefined;
  return end;
}
