// Whether one phrase can carry a post on its own. Most misread posts on real text rest on one weak word:
// a move word about something else ("costs soar", "NFT drop"), or one topical word used in passing
// ("hackers", "lawsuit", "bullish"). A phrase stands alone when something beside it says it is about a
// coin: the coin named before the move word ("Bitcoin slides"), a size in it ("slides 9%"), a crypto name
// in the sentence for a one-word phrase ("SEC sues Uniswap"), or the author's own voice on a stance
// ("I'm shorting"). Phrases of several words are specific enough by themselves ("halts withdrawals").

import { COIN, CRYPTO, PRICED } from './crypto-names.js';

// "surges 8.8%", "jumps more than 1,000 points": a size right after the move word.
const SIZE_AFTER =
  /^\s+(?:(?:by|over|more than|nearly|almost|about|some|as much as)\s+)?[$+-]?\d[\d,.]*\s?(?:%|percent|points?|pts|x\b)/i;
// "falls below $58,000", "climbs back to $70K": a move to a price level is a move of a price.
// An amount ("rises to $500M") is not a level.
const LEVEL_AFTER =
  /^\s+(?:back\s+)?(?:below|under|above|to|past|toward|towards|near|over)\s+(?:the\s+)?\$\s?\d[\d,.]*(?!\d|\s?(?:[mbt]n?|million|billion|trillion)\b)/i;
// Market talk reads the price of whatever the text names; the other rules are crypto events, and on a
// text that names no coin they are someone else's (a company's acquisition, another country's lawsuit).
const MARKET_TALK = /^(?:market|technical|sentiment)\./;
const ECONOMY = /^macro\.(?:rate-|dovish|hawkish|inflation|dollar|recession|tailwind)/;
// The economy that moves crypto: the Fed, US data, the dollar. Another country's rate cut is its own news.
const FOREIGN_ECONOMY =
  /\b(?:ecb|boj|boe|rba|rbi|rbnz|pboc|snb|bank of (?:japan|england|canada|korea|mexico|russia)|european central bank|reserve bank|(?:china|chinese|japan(?:ese)?|india(?:n)?|russia(?:n)?|brazil(?:ian)?|kenya(?:n)?|mexic(?:o|an)|turk(?:ey|ish)|brit(?:ain|ish)|u\.k\.|uk|euro ?(?:zone|area)|europe(?:an)?|german(?:y)?|canad(?:a|ian)|australia(?:n)?|korea(?:n)?|new zealand|swiss|switzerland|argentin(?:a|e)|nigeria(?:n)?|south africa(?:n)?|indonesia(?:n)?|philippine\w*|thai(?:land)?|vietnam\w*|egypt\w*|pakistan\w*)(?:'s)?)\b/i;
// A macro topic named ("rate cut", "trade war", "stimulus") is not yet an event ("the Fed cuts rates").
const TOPIC =
  /^(?:rate (?:cuts?|hikes?)|trade (?:war|deal)|stimulus|tailwinds?|hawkish|dovish|recession (?:fears?|risks?|worries)|tariff \w+|geopolitical \w+|higher for longer|risk[- ]off(?: mood)?|quantitative (?:easing|tightening)|monetary (?:easing|tightening))$/i;
const US_ECONOMY =
  /\b(?:fed|fomc|powell|federal reserve|u\.s\.|us|america\w*|treasur(?:y|ies)|wall street|cpi|pce|payrolls|jobs report|dxy|dollar)\b/i;
// A name right before the move word: "Hertz slides", "L'Oreal rallies", "Kohl's Plunges", "NIO jumps". A
// capitalised plural ("Prices Crash", "Employees Surge") or a word for an amount is not a name.
const NAME_BEFORE = /(?:^|\s)([A-Z][\w'&.-]*)(?:\s+(?:shares|stock|token|coin|price)s?)?\s*$/;
const NOT_A_NAME =
  /^(?:[A-Z][a-z]+[^'s]s|The|A|An|This|That|It|Its|Their|Market|Economy|Industry|Sector|Growth|Demand|Supply|Production|Output|Sales|Revenue|Profit|Income|Traffic|Volume|Activity|Inflation|Unemployment|Debt|Deficit|Spending|Trade|Exports|Imports|Recovery|Confidence|Sentiment|Hope|Fear|Risk)$/;

function namedBefore(text: string, titleCase: boolean): boolean {
  const found = NAME_BEFORE.exec(text);
  const name = found?.[1];
  if (found === null || name === undefined || NOT_A_NAME.test(name)) return false;
  // In a title every word has a capital: only a ticker, or the headline's first word, is surely a name.
  if (titleCase) return /^[A-Z]{2,6}$/.test(name) || text.slice(0, found.index).trim() === '';
  // "cases in Indonesia surges": a place after a preposition is not what moved.
  return !/\b(?:in|of|from|at|for|to|on|by|with)\s*$/i.test(text.slice(0, found.index));
}

// A view on something named: "bullish on Nvidia", "bearish on the Nasdaq". A day or a month is no name.
const ON_A_NAME =
  /^\s+[Oo]n\s+(?:[Tt]he\s+)?(?!(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday|January|February|March|April|May|June|July|August|September|October|November|December|Twitter|X|TV|CNBC)\b)[A-Z$][\w&'.-]*/;

export interface StandQuestion {
  rule: { id: string; cue?: string; weakWithoutCoin?: string };
  clause: string;
  start: number;
  end: number;
  /** The whole text: a coin named in the phrase itself counts ("buys 12,000 bitcoin"). */
  text: string;
  /** Most of the text's words start with a capital. */
  titleCase: boolean;
}

/**
 * Why a phrase cannot carry a post alone. `shared`: the reason holds for the whole text (it names no coin,
 * it asks a question), so another phrase with the same reason does not corroborate it.
 */
export interface Weakness {
  why: string;
  shared: boolean;
  /** Weak only alone: beside another independent cue that agrees, it stands (corroboration.ts). */
  aloneOnly?: boolean;
  /**
   * Why the phrase posts at no level alone, not even at `active`: it only agrees with another cue
   * (corroboration.ts). Absent: alone it posts at `active`.
   */
  agreesOnly?: string;
}

const own = (why: string): Weakness => ({ why, shared: false });
const shared = (why: string): Weakness => ({ why, shared: true });

/** Why the phrase is too weak to post on alone; undefined when it can. */
export function weaknessOf({ rule, clause, start, end, text, titleCase }: StandQuestion): Weakness | undefined {
  const matched = clause.slice(start, end).trim();
  // The subject may stand anywhere before the move word in its clause: "the coin closed the week at a new high".
  const before = clause.slice(0, start);
  const named = namedBefore(clause.slice(0, start), titleCase);
  if (rule.cue === 'price move') {
    const after = clause.slice(end);
    if (/\d/.test(matched) || SIZE_AFTER.test(after) || LEVEL_AFTER.test(after) || PRICED.test(before) || named) {
      return undefined;
    }
    return own('a move word without its coin or size');
  }
  if (MARKET_TALK.test(rule.id)) {
    if (PRICED.test(text) || named || /\$\s?\d/.test(text) || ON_A_NAME.test(clause.slice(end))) return undefined;
    return /\s/.test(matched) ? shared('nothing priced named') : own('one word, nothing priced named');
  }
  if (ECONOMY.test(rule.id)) {
    const foreign = FOREIGN_ECONOMY.test(text) && !US_ECONOMY.test(text) && !CRYPTO.test(text);
    if (foreign) return shared("another country's economy");
    return TOPIC.test(matched) ? own('a topic named, not an event') : undefined;
  }
  if (!CRYPTO.test(text)) return shared("no coin named: someone else's event");
  if (rule.weakWithoutCoin !== undefined && !COIN.test(clause)) {
    return { why: rule.weakWithoutCoin, shared: false, aloneOnly: true };
  }
  return undefined;
}

/** Most words of three letters or more start with a capital, as in a title. */
export function isTitleCase(text: string): boolean {
  const words = text.match(/\b[a-zA-Z][a-zA-Z']{2,}\b/g) ?? [];
  if (words.length < 3) return false;
  return words.slice(1).filter((w) => /^[A-Z]/.test(w)).length / (words.length - 1) > 0.6;
}

/** Whether the text names a coin or a crypto thing at all. */
export const namesCrypto = (text: string): boolean => CRYPTO.test(text);
