import type { SignalMethod } from '../domain/profile.js';
import { loudness } from './amounts.js';
import { isTitleCase, namesCrypto, weaknessOf, type Weakness } from './anchors.js';
import { authorVoice, preferAuthor } from './author-stance.js';
import { clauseList, CONCEDED, type Clause } from './clauses.js';
import { findHits, type Hit } from './find-phrases.js';
import { frameOf, type Frame } from './frames.js';
import { presupposition, textFrameOf, type TextFrame } from './text-frames.js';
import type { MaskKind } from './lexicon-masks.js';
import { negationOf, type NegationKind } from './negation.js';
import { pastMovesAsBackground } from './past-moves.js';
import { pastStanceOf, quoteUseOf, recallOf } from './reading-cues.js';

/** One lexicon phrase found in a text, after negation, context and amounts. */
export interface Reading {
  ruleId: string;
  /** Absent for a mask (an idiom, a background mention), which has no method and counts nothing. */
  method?: SignalMethod;
  /** Evidence text: the rule's label, or its negated label. */
  label: string;
  /** Signed; 0 when the phrase counts nothing here (negated, recalled, a past stance, an idiom…). */
  weight: number;
  /** The words that matched, as written. */
  matched: string;
  negated: boolean;
  multiplier: number;
  amount?: string;
  /** What changed the rule's weight, each naming the cue that did, for the trace. */
  notes: string[];
  /** Why the phrase counts nothing, for the trace; absent when it counts. */
  ignored?: string;
  /** Phrases with the same cue say one thing (rule.cue, else the rule's id). */
  cue: string;
  /** Why the phrase cannot carry a post alone (a weak word, a frame); absent when it can. */
  weak?: Weakness;
  /** A stance in the author's own voice ("I'm shorting", "fade it"). */
  author?: boolean;
}

/** What is known about the text besides its words. */
export interface TextContext {
  /** The year the text was written: earlier years in it are the past. */
  year?: number;
}

/** What readClause knows about the clause's place in the text. */
interface Place extends TextContext {
  whole: string;
  /** The sentence asks rather than says. */
  question: boolean;
  namesCoin: boolean;
  titleCase: boolean;
  /** The text speaks in the first or second person. */
  conversation: boolean;
  /** The text runs to LONG_COMMENT sentences or more: a comment's argument, not a headline. */
  longComment: boolean;
  /** The sentence the clause is in, split at full stops only. */
  sentence: string;
  /** An earlier clause of the sentence read news: a context clause after it serves that news. */
  newsEarlier: boolean;
  frame?: TextFrame;
}

export { CONCEDED, readClauses, splitClauses, type Clause } from './clauses.js';

/**
 * The sentence a clause is in, split at full stops only: "No, the SEC did not approve it: the post was
 * fake" is one claim and its denial.
 */
function sentenceOfClause(text: string, clause: string): string {
  return text.split(/(?<=[.!?])\s+/).find((s) => s.includes(clause)) ?? clause;
}

const CLOSERS = /["'\u201D)\s]/;
const LINK = /^https?:\/\/\S/;
const LINK_START = /https?:\/\/(?=\S)/g;

/**
 * Whether the text ends with a question mark, before closing quotes, brackets and links. A scan back from
 * the end, not one pattern: a pattern for it backtracks exponentially on a run of links.
 */
export function endsAsking(text: string): boolean {
  const asksBefore = (end: number) => {
    let at = end - 1;
    while (at >= 0 && CLOSERS.test(text.charAt(at))) at -= 1;
    return text.charAt(at) === '?';
  };
  if (asksBefore(text.length)) return true;
  // The links at the end: whole words that are links, and the one word before them, whose end may be a
  // link written right after the question mark ("why?https://…").
  const words = [...text.matchAll(/\S+/g)];
  let first = words.length;
  while (first > 0 && LINK.test(words[first - 1]?.[0] ?? '')) first -= 1;
  const from = words[Math.max(0, first - 1)]?.index ?? text.length;
  for (const link of text.slice(from).matchAll(LINK_START)) if (asksBefore(from + link.index)) return true;
  return false;
}

// A post that says "I" or "you" is a conversation, not a report.
const CONVERSATION = /\b(?:i|i'm|im|i've|i'll|i'd|me|my|you|you're|your|we|we're|our)\b/i;

const CONVERSATION_MOVE = 0.5;
const TALK_WEAKNESS = { why: 'talk in a first- or second-person post', shared: false };
const TALK_MOVE = 'a move word in talk only agrees with another cue';
// "It will dump", "it's going to pump": a move the post foretells is its author's call, not a step of the
// argument. "Investors who will pump it" foretell nothing of the author's.
const FORETOLD =
  /(?<!\b(?:who|that|which)\s+)\b(?:will|'ll|going to|gonna|about to)\s+(?:(?:keep|eventually|probably|definitely|surely|soon|just|still|never)\s+)?$/i;
/**
 * A headline or a news post says its news in one or two sentences; a text of this many is a comment
 * arguing a case, where one market phrase is a step of the argument ("it crashed before and came back").
 */
export const LONG_COMMENT = 3;
const CASHTAG = /\$[a-z][a-z\d]{0,9}\b/i;
const ARGUMENT_WEAKNESS = {
  why: `one phrase in a comment of ${LONG_COMMENT} or more sentences`,
  shared: false,
  aloneOnly: true,
};

/** Every lexicon phrase in the text, in reading order. */
export function readText(text: string, context: TextContext = {}): Reading[] {
  const { clauses, sentenceOf } = clauseList(text);
  const frame = textFrameOf(text);
  const namesCoin = namesCrypto(text);
  const titleCase = isTitleCase(text);
  const conversation = CONVERSATION.test(text);
  // A cashtag says which asset the post is about, as a headline's subject does.
  const longComment = sentenceCount(text) >= LONG_COMMENT && !CASHTAG.test(text);
  const newsIn = new Set<number>();
  const readings = clauses.flatMap((clause, i) => {
    const first = sentenceOf[i] ?? i;
    let last = i;
    while (sentenceOf[last + 1] === first) last += 1;
    const question = endsAsking(clauses[last]?.text ?? '');
    const sentence = sentenceOfClause(text, clause.text);
    const newsEarlier = newsIn.has(first);
    const place: Place = {
      ...context,
      whole: text,
      question,
      namesCoin,
      titleCase,
      conversation,
      longComment,
      sentence,
      newsEarlier,
    };
    const read = readClause(clause, frame === undefined ? place : { ...place, frame });
    if (read.some((r) => r.weight !== 0)) newsIn.add(first);
    return read;
  });
  return preferAuthor(pastMovesAsBackground(readings, text));
}

// A full stop, an exclamation or a question mark that ends a sentence; a colon or a dash in a headline
// ("Market update: Dow down 0.2% - Nasdaq up") does not, nor the dot of a short abbreviation ("U.S.",
// "Co.", "St. Louis"): a full stop ends a sentence after two small letters or three letters of any case
// ("HODL.").
const SENTENCE_END = /(?:(?<=[a-z\d%]{2}|[A-Za-z\d]{3})\.|[!?])(?=\s|$)/g;

/** How many sentences the text has, its links aside (a link's dots end no sentence). */
export function sentenceCount(text: string): number {
  const words = text.replace(/https?:\/\/\S*/g, ' ').trim();
  if (words === '') return 0;
  const ends = words.match(SENTENCE_END)?.length ?? 0;
  return /[.!?]$/.test(words) ? ends : ends + 1;
}

const IGNORED_WHEN: Record<NegationKind, (cue: string) => string> = {
  negated: () => 'is negated',
  lacking: (cue) => `is lacking ("${cue}")`,
  sought: (cue) => `is only sought ("${cue}")`,
};

const MASK_SAYS: Record<MaskKind, string> = {
  idiom: 'is an idiom',
  background: 'names a past event as background',
  advice: 'is advice, not news',
  unsigned: 'is a supply event without a sign',
  metric: "is a market metric's level or move, not the price's",
  trade: 'is talk of a trade that says no direction',
  fiat: "is a venue's rail for a government currency, no coin",
};

function readClause({ text: clause, conceded }: Clause, place: Place): Reading[] {
  const { whole, year } = place;
  const hits = findHits(clause);
  if (hits.length === 0) return [];
  const { multiplier, amount } = loudness(clause);
  // Where the phrases that count so far end: a context clause discounts only when the news came first.
  const counted: number[] = [];
  const readHit = ({ rule, start, end }: Hit): Reading => {
    const matched = clause.slice(start, end);
    const base = { ruleId: rule.id, cue: rule.id, matched, negated: false, multiplier: 1, notes: [] as string[] };
    if (!('weight' in rule)) return { ...base, label: '', weight: 0, ignored: MASK_SAYS[rule.kind] };
    if (place.frame?.factor === 0) {
      return { ...base, label: rule.label, weight: 0, ignored: `is discounted: ${framed(place.frame)}` };
    }
    const ignore = (why: string): Reading => ({
      ...base,
      cue: rule.cue ?? rule.id,
      method: rule.method,
      label: rule.label,
      weight: 0,
      ignored: why,
    });

    const past = rule.stance ? pastStanceOf(clause, start, end, whole, year) : undefined;
    if (past) return ignore(`is a stance held in the past ("${past}")`);
    if (rule.reportOnly && place.conversation)
      return ignore('is a word of the debate in a first- or second-person post');
    const recalled = recallOf(clause, start, end, year);
    if (recalled) return ignore(`recalls a past event ("${recalled}")`);
    const quoted = quoteUseOf(clause, start, end);
    if (quoted?.kind === 'mention') return ignore(`is quoted as a word, not used ("${quoted.cue}")`);
    if (quoted?.kind === 'retort') return ignore(`is quoted as someone else's words, to mock them ("${quoted.cue}")`);

    const notes: string[] = [];
    let turn: { factor: number; label: string } | undefined;
    let negated = false;
    if (quoted) {
      negated = true;
      turn = rule.negated;
      if (!turn) return ignore(`is quoted to reject it ("${quoted.cue}")`);
      notes.push(`quoted to reject it: "${quoted.cue}"`);
    } else if (!rule.ownsNegation) {
      const negation = negationOf(clause, start, end);
      if (negation) {
        negated = true;
        turn = negation.kind === 'negated' ? rule.negated : negation.kind === 'lacking' ? rule.lacking : undefined;
        if (!turn) return { ...ignore(IGNORED_WHEN[negation.kind](negation.cue)), negated };
        notes.push(`${negation.kind}: "${negation.cue}"`);
      }
    }
    const around = { rule, clause, start, end };
    const { question, namesCoin, sentence } = place;
    const newsBefore = (index: number) => place.newsEarlier || counted.some((at) => at <= index);
    let frame = frameOf({ ...around, question, newsBefore, namesCoin, whole, sentence }) ?? place.frame;
    if (frame?.factor === 0) return ignore(`is discounted: ${framed(frame)}`);
    const weakness = weaknessOf({ ...around, text: whole, titleCase: place.titleCase });
    // A move the question or explainer asks the reason for has happened: "why is bitcoin down today?"
    const given = rule.cue === 'price move' && weakness === undefined ? presupposition(whole) : undefined;
    if (given && (frame?.why === 'question' || frame?.why === 'explainer')) {
      notes.push(`a move presupposed by "${given}"`);
      frame = undefined;
    }
    if (frame) notes.push(`×${frame.factor} ${framed(frame)}`);
    const speaker = rule.stance === true && conceded === undefined ? authorVoice(clause, start, end) : {};
    const { voice } = speaker;
    const author = voice !== undefined;
    if (rule.authorOnly && !author) {
      const whose = speaker.other === undefined ? '' : ` ("${speaker.other}")`;
      return ignore(`is someone else's position${whose}, not the author's`);
    }
    // Posts drop the "I": the trace says whose stance the phrase was read as.
    if (voice === 'subject left out') notes.push("the author's own, subject left out");
    if (voice === 'call') notes.push("the author's own call");
    // In a comment a move word is talk about the market ("quick gains", "it will crash one day"), not a
    // report of a move: it needs the author's own stance or other evidence beside it.
    const talk = place.conversation && !author ? CONVERSATION_MOVE : 1;
    const weak = frame?.weakens
      ? { why: frame.why, shared: frame.own !== true }
      : rule.weakAlone !== undefined
        ? { why: rule.weakAlone, shared: false }
        : voice === 'first person' || voice === 'subject left out' || voice === 'call'
          ? undefined
          : voice !== undefined
            ? place.longComment
              ? ARGUMENT_WEAKNESS
              : undefined
            : (weakness ?? (talk !== 1 ? TALK_WEAKNESS : place.longComment ? ARGUMENT_WEAKNESS : undefined));
    if (talk !== 1) notes.push(`×${talk} talk in a first- or second-person post`);
    // A move word in a comment's talk is a step of its argument ("they survived the dump", "in it for
    // quick gains", "driving the dump in both markets"): on labelled comments its tone was the other way
    // nearly as often as not, so it only agrees with another cue, at every level.
    const foretold = FORETOLD.test(clause.slice(0, start));
    const agrees =
      talk !== 1 && rule.cue === 'price move' && weak !== undefined && !foretold ? { agreesOnly: TALK_MOVE } : {};
    const factor = (turn?.factor ?? 1) * (conceded ? CONCEDED : 1) * (frame?.factor ?? 1) * talk;
    if (conceded) notes.push(`×${CONCEDED} conceded ${conceded}`);
    const reading: Reading = {
      ruleId: rule.id,
      cue: rule.cue ?? rule.id,
      method: rule.method,
      label: turn?.label ?? rule.label,
      weight: round(rule.weight * factor * multiplier),
      matched,
      negated,
      multiplier: round(multiplier),
      notes,
      ...(weak === undefined ? {} : { weak: { ...weak, ...agrees } }),
      ...(author ? { author } : {}),
    };
    return amount === undefined ? reading : { ...reading, amount };
  };
  return hits.map((hit) => {
    const reading = readHit(hit);
    if (reading.weight !== 0) counted.push(hit.end);
    return reading;
  });
}

function framed(frame: Frame): string {
  return frame.cue === frame.why ? frame.why : `${frame.why} ("${frame.cue}")`;
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}
