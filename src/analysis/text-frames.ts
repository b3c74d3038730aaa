import type { Frame } from './frames.js';
import { compilePattern } from './compile-pattern.js';
import { firstMatch } from './first-match.js';

// Frames that hold for a whole text, found once per text: sarcasm (nothing is read), an explainer or a
// guide (a quarter), a list (half); and the "why" that takes a move as given rather than asking about it.

/** A frame that holds for the whole text, found once. */
export type TextFrame = Frame & { kind: 'sarcasm' | 'explainer' | 'listicle' };

// Irony announces itself with a few set phrases and emoji; a text that uses one is not read at all.
const SARCASM = compilePattern(
  [
    '\u{1F643}', // upside-down face
    '\u{1F921}', // clown
    '\u{1F644}', // eye roll
    '(?:^|\\s)/s\\b',
    '\\bsaid no one ever\\b',
    '\\byeah,? (?:right|sure)\\b',
    '\\btotally (?:fine|normal|healthy|sustainable)\\b',
    '\\blove (?:this|that) for (?:me|us)\\b',
    '\\bwhat could (?:possibly )?go wrong\\b',
    '\\bi (?:always|just) wanted to (?:learn|know|see)\\b',
    '\\bnothing says .{1,40} like\\b',
    '\\bfunny how\\b',
    '\\btrust me,? bro\\b',
    '\\bin shambles\\b',
    "\\bcan(?:no|')t wait for the next\\b",
    // "buy the dip they said": a slogan quoted back at those who said it, told after it failed.
    "(?:^|[.!?]\\s)\\s*(?:just\\s)?(?:buy|time to buy|hodl|hold|zoom out|dca|ape|invest|stake|trust|it(?:'ll| will)|its? going to|wagmi|number go up|digital gold|safe haven)\\b[^.!?]{0,40}?,? they said\\b",
  ].join('|'),
  'iu',
);
// Explainers, guides and advice describe how things work, not what happened.
const EXPLAINER = compilePattern(
  '\\b(?:' +
    [
      'explain(?:ed|er|s)',
      'how to',
      'how (?:do|does|can|did) (?:i|you|we|it|they)',
      "(?:beginner'?s|trader'?s|simple|complete|ultimate|quick) guide",
      'guide (?:to|for)',
      'a primer',
      'primer:',
      '101\\b',
      'understanding',
      'what is an?',
      'what are',
      'what (?:it|this|that) (?:can |could |may |might )?means?',
      'what happens (?:when|if|to)',
      'why do(?:es)?',
      'the difference between',
      'everything you need to know',
      '(?:things|what) (?:you need )?to know',
      'pros and cons',
      'risks and rewards',
      'lessons? (?:from|of|learned)',
      'what we learned',
      'what to do (?:if|when)',
      'tips (?:for|to)',
      'a breakdown of',
      "here'?s (?:what|why|how|when)",
      'a look at',
      'what to expect',
      'preview:?',
      'a (?:short |brief )?history of',
      'a short history',
      "what'?s coming",
      '(?:unlock|token|release|event) (?:schedule|calendar)',
    ].join('|') +
    ')',
  'i',
);
// "How staking works", "what the halving means for miners": each apart from the list above (and from each
// other), which recheck clears only without these gaps in it.
const EXPLAINER_GAPS = [
  compilePattern('\\bhow .{1,40} works?\\b', 'i'),
  compilePattern('\\bwhat .{1,60} means? for', 'i'),
];
// "Bitcoin drops 5%. Here's why", "Dow up 300 points - here's what's moving markets": news told first, and
// a teaser for the article after it, is news, not an explainer.
const TEASER = /^(?:here'?s (?:what|why|how)|what (?:you need )?to know|what (?:it|this|that) means)/i;
const STOPS = /[.!:;\u2013\u2014]$/;
const HYPHEN = /\s-$/;

/**
 * Whether the text before a teaser is news told first: a line of at least two words (each with two word
 * characters in a row, the last starting with them) and maybe one more, ended by a full stop, a colon, a
 * dash or a hyphen after a space. A scan over the words, not one pattern: a pattern for it backtracks
 * exponentially on a long line of words.
 */
export function newsBefore(text: string): boolean {
  const line = text.trimEnd();
  if (STOPS.test(line)) return twoWordsEnd(line.slice(0, -1));
  if (HYPHEN.test(line)) return twoWordsEnd(line.slice(0, -2));
  return false;
}

/** Two words, then maybe one more word glued to what follows. */
function twoWordsEnd(text: string): boolean {
  const words = text.trimEnd().split(/\s+/);
  const end = /\s$/.test(text) ? words.length : words.length - 1;
  return /^\w\w/.test(words[end - 1] ?? '') && /\w\w/.test(words[end - 2] ?? '');
}

function isTeaser(text: string, at: number): boolean {
  return TEASER.test(text.slice(at)) && newsBefore(text.slice(0, at));
}

// "5 altcoins to watch", "Top 10 crypto hacks", "3 reasons bitcoin could rally".
const LISTICLE =
  /^(?:(?:the\s+)?(?:top\s+)?(?:\d{1,2}|three|four|five|six|seven|eight|nine|ten)\s+(?:\w+\s+){0,3}(?:things|reasons|ways|signs|coins|altcoins|cryptos?|tokens|memecoins|stocks|etfs|charts|lessons|events|predictions|mistakes|hacks|crashes|wallets|projects|picks)\b|(?:the\s+)?(?:top|best)\s+\d{1,2}\b|best\s+(?:crypto|bitcoin|\w+)\s+(?:wallets|exchanges|apps)\b)/i;

export function textFrameOf(text: string): TextFrame | undefined {
  const sarcasm = SARCASM.exec(text);
  if (sarcasm) return { kind: 'sarcasm', why: 'sarcasm', cue: sarcasm[0].trim(), factor: 0, weakens: true };
  const explainer = firstMatch([EXPLAINER, ...EXPLAINER_GAPS], text);
  if (explainer && !isTeaser(text, explainer.index))
    return { kind: 'explainer', why: 'explainer', cue: explainer[0], factor: 0.25, weakens: true };
  const listicle = LISTICLE.exec(text.trim());
  if (listicle) return { kind: 'listicle', why: 'listicle', cue: listicle[0], factor: 0.5, weakens: true };
  return undefined;
}

// "Why is bitcoin down today?", "Here's why XRP rallied 20%": the move is taken as given, not asked about.
// "Why do prices crash on weekends?" asks about a habit, not an event: only these forms take a move as given.
const PRESUPPOSES =
  /\b(?:why (?:is|are|was|were|did|has|have)\b|here'?s why|what'?s behind|what is behind|reasons? (?:behind|for|why))/i;

/** The "why" that presents a move as a fact, if the text has one. */
export const presupposition = (text: string): string | undefined => PRESUPPOSES.exec(text)?.[0];
