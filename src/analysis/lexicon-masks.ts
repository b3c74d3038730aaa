// Phrases that contain a market word without meaning it: an idiom ("bear in mind", "crash course"),
// a past event named as background ("the bankrupt exchange's customers"), advice ("how to spot a
// scam"), or talk of a trade that says no direction ("took some profits", "paper hands selling"). A mask is matched like a rule and wins an overlap the same way, by length, so the loaded
// word inside it is never read; the trace says which mask took it.

import { compile } from './lexicon-rule.js';
import type { Needs } from './pattern-needs.js';

export type MaskKind = 'idiom' | 'background' | 'advice' | 'unsigned' | 'metric' | 'trade' | 'fiat';

export interface Mask {
  readonly id: string;
  readonly kind: MaskKind;
  readonly patterns: readonly RegExp[];
  readonly needs: readonly Needs[];
}

function mask(id: string, kind: MaskKind, patterns: readonly string[]): Mask {
  return { id, kind, ...compile(patterns) };
}

const METRIC =
  '(?:(?:gas|transaction|network|trading) fees?|open interest|funding rates?|(?:mining )?difficulty|' +
  'volatility|trading volumes?|volumes?|staking withdrawals|withdrawal queue|' +
  // Traders' positions are a metric too: "leverage longs at all time highs" is a crowded trade, not a price.
  '(?:leveraged? )?(?:longs|shorts)|long positions|short interest|leverage)';

// Government money by name or code: a venue's rail for one of these is a way in, not a coin.
const FIAT =
  '(?:dollars?|usd|euros?|eur|pounds?|gbp|sterling|yen|jpy|yuan|cny|won|krw|rupees?|inr|rubles?|pesos?|' +
  'lira|reais|brl|naira|ngn|rand|zar|aud|cad|fiat)';

/** Built on first use, like the lexicon. */
export const masks = (): readonly Mask[] => [
  mask('idiom.bear', 'idiom', [
    'bear with (?:us|me|them)',
    'bear in mind',
    'bears? the brunt',
    'bears? fruit',
    'grin and bear it',
  ]),
  mask('idiom.bull', 'idiom', ['(?:like a )?bull in a china shop', 'take the bull by the horns', 'bull ?shit']),
  mask('idiom.crash', 'idiom', [
    'crash course',
    'crash test(?:s|ing)?',
    'crash(?:es|ed)? the party',
    'app crash(?:es|ed)?',
  ]),
  mask('idiom.hack', 'idiom', [
    'life ?hacks?',
    'growth hack(?:s|ing)?',
    'hack(?:s|ed)? together',
    // A hacked social account posts what it likes ("hacked SEC account falsely announces approval"): no
    // funds drained. One account, singular: "hacked accounts" are as often customers' accounts emptied.
    `hacked (?:(?:official|verified|the|its|a)\\s+)?(?:\\w+['’]?s?\\s+)?(?:(?:x|twitter|social media|instagram|youtube|telegram|discord|facebook)\\s+)?account(?!s)`,
    `(?:x|twitter|social media|instagram|youtube|telegram|discord|facebook) accounts? (?:(?:was|were|is|got|gets|has been|had been)\\s+)?hacked`,
  ]),
  mask('idiom.rally', 'idiom', [
    'rall(?:y|ies|ied|ying) (?:behind|around|round|support|the troops|the community|developers|voters|supporters|outside|in front of|at (?:the )?(?:city hall|capitol|parliament))',
    'political rall(?:y|ies)',
    'campaign rall(?:y|ies)',
  ]),
  mask('idiom.burn', 'idiom', ['burn(?:s|ing|ed)? the midnight oil', 'burn(?:s|ing|ed)? bridges', 'burn ?out']),
  mask('idiom.break', 'idiom', [
    'break(?:s|ing)? the ice',
    'break(?:s|ing)? even',
    'breakout (?:session|room)s?',
    'broke even',
  ]),
  mask('idiom.breakdown', 'idiom', [
    '(?:portfolio|cost|price|fee|revenue|spending|detailed|full|quick|complete|weekly|monthly|daily) breakdowns?',
    'breakdowns? of',
    // "breaks down the basics": explains. A chart breaks down below something, or alone.
    'break(?:s|ing)? down (?:the|a|an|\\d+|what|how|why|your|all|this|these|his|her|their)\\b',
  ]),
  mask('idiom.drop', 'idiom', [
    '(?:nft|merch|album|collection|sneaker|mint|new|surprise) drops?',
    'drops? (?:a |an |the |his |her |their |its )?(?:surprise |new )?(?:song|album|video|single|trailer|collection|teaser|podcast|episode)',
  ]),
  mask('idiom.fall-short', 'idiom', ['fall(?:s|ing)? short', 'fell short']),
  mask('idiom.dive', 'idiom', ['deep[- ]dives?', 'div(?:e|es|ing) (?:deep )?into']),
  mask('idiom.jump', 'idiom', [
    'jump(?:s|ed|ing)? (?:through hoops|the gun|ship|on the bandwagon|at the chance)',
    'jump(?:s|ed|ing)?[- ]start(?:s|ed)?',
  ]),
  mask('idiom.other', 'idiom', [
    '(?:the )?rise and fall',
    'set in stone',
    'hot potato',
    'sold like hot ?cakes',
    'sells? like hot ?cakes',
    'bleeding edge',
    'moves? the needle',
    'job listings?',
    'short on (?:time|details|cash|staff|ideas)',
    'long (?:time|way) (?:coming|to go)',
    'a long time coming',
    'surge pricing',
    'power surge',
    'dump(?:ing)? ground',
    'think tanks?',
  ]),
  // A failed firm named to say who is meant, in a story about something else.
  mask('background.failed-firm', 'background', [
    "(?:the\\s+)?(?:bankrupt|collapsed|defunct|now-defunct|failed|insolvent|hacked|exploited)\\s+(?:crypto\\s+)?(?:exchange|lender|firm|platform|company|protocol|stablecoin|fund|broker|bank|project)(?:['\u2019]s)?",
    "(?:ftx|celsius|voyager|mt\\.? gox|terra|blockfi)(?:['\u2019]s)? (?:estate|trustee|creditors|bankruptcy estate)",
    'bankruptcy (?:estate|trustee|administrator)',
  ]),
  // People read a burn or a buyback as bullish, neutral or even bearish about as often: without a sign
  // in the text (a price move, "supply shrinks"), it says nothing.
  mask('supply.burn-buyback', 'unsigned', [
    '(?:token\\s+|share\\s+|stock\\s+)?buy-?backs?',
    '(?:token\\s+|quarterly\\s+)?burn(?:s|ed|ing)?(?: rate| program| tax)?',
  ]),
  // A market metric's level or move is not the price's: "gas fees drop to lowest level in years", "open
  // interest hits record high", "mining difficulty drops 6%", "staking withdrawals surge". Readers split on whether
  // a record in leverage or fees is bullish or bearish, and the price word inside is not a move.
  mask('metric.level', 'metric', [
    `${METRIC}\\s+(?:\\w+\\s+){0,3}(?:record|all[- ]time|multi-year|lowest|highest|\\d+-\\w+)\\s+(?:highs?|lows?|levels?)`,
    `${METRIC}\\s+(?:\\w+\\s+)?(?:surg|soar|spik|jump|climb|ris|rose|drop|fall|fell|plung|slid|sink|sank|tumbl|dip|declin)\\w*(?:\\s+(?:by\\s+)?\\d+(?:\\.\\d+)?%)?`,
  ]),
  // An exchange or an app adding a rail for a government currency ("adds Turkish lira trading pairs",
  // "opens euro deposits") names no coin: it is the venue's product news. Pairs "for" or "of" named
  // tokens are a listing, and stay with the listing rules.
  mask('fiat.rail', 'fiat', [
    `(?:adds?|added|adding|launch(?:es|ed|ing)?|opens?|opened|introduc(?:es|ed)|enabl(?:es|ed)|offers?|rolls? out|rolled out|expands?|supports?)\\s+(?:\\w+\\s+){0,3}?${FIAT}\\s+(?:(?:trading|spot)\\s+)?(?:pairs?|deposits?|withdrawals?|on-?ramps?|off-?ramps?|gateways?|rails?|payments?|trading)\\b(?!\\s+(?:for|of)\\b)`,
  ]),
  // A crash or a collapse named as a past event ("that FTX collapse", "the 2022 crash", "every bull run
  // ends the same way") is a story's background or a lesson, not a move of now.
  mask('background.past-event', 'background', [
    '(?:the|that) (?:ftx|luna|terra|celsius|3ac|three arrows|mt\\.? gox|covid|(?:19|20)\\d\\d) (?:collapse|crash|implosion|blow-?up|meltdown|debacle|fiasco|capitulation|dump)',
    'every (?:single )?(?:bull run|bull market|bear market)',
  ]),
  // What weak hands do is the author's contempt for them, and often the reason to buy from them: "paper
  // hands selling at the bottom, thanks for the cheap coins".
  mask('trade.weak-hands', 'trade', [
    '(?:paper|weak|jelly) hand(?:s|ed|ers)? (?:\\w+ ){0,2}?(?:sell(?:s|ing)?|sold|dump(?:s|ing|ed)?|panic(?:ked|king)?(?: sell(?:ing)?)?|capitulat(?:e|es|ed|ing)|fold(?:s|ed|ing)?)',
  ]),
  // Taking part of a profit keeps the rest of the position: "took profits on half my bag, riding the rest".
  mask('trade.partial-profit', 'trade', [
    '(?:took|take|taking|takes) (?:some |partial |a (?:bit|little) of )profits?',
    '(?:took|take|taking|takes) (?:some )?profits? (?:on|off) (?:half|some|part|a (?:bit|portion|third|quarter)|a few|\\d+%)',
  ]),
  // A trader's own liquidation is a story of their loss: "got liquidated on my 50x long again".
  mask('trade.own-liquidation', 'trade', [
    '(?:got |been |was |just )?(?:liquidated|rekt|wrecked) on my(?: \\w+){0,2}? (?:longs?|shorts?|positions?|trades?|bags?)',
    'my (?:\\w+ )?(?:long|short|position|trade)s? (?:just )?(?:got|was|were|been) (?:liquidated|rekt)',
  ]),
  // Scam messages and links are a warning about phishing, not an allegation against a coin.
  mask('advice.phishing', 'advice', [
    '(?:scam|phishing|fake)(?: airdrop| support| giveaway| wallet)? (?:dms?|messages?|emails?|calls?|texts?|links?|accounts?|airdrops?)',
  ]),
  mask('advice.scam', 'advice', [
    '(?:how|ways|tips) to (?:spot|avoid|identify|recogni[sz]e|protect yourself from|report)(?:\\s+\\w+){0,3}?\\s+(?:scams?|fraud|hacks?|rug pulls?|phishing)',
  ]),
];
