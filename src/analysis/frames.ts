// The frame a phrase stands in, which can make a right phrase say nothing: a question ("is the bull run
// over?"), an explainer or a piece of advice ("how to keep your coins safe from hackers"), a list, a
// hypothetical ("if the ETF is approved"), a denial or a falsehood ("denies reports it will delist"),
// someone else's position ("my bearish friend"), a trade the author is still weighing ("thinking about
// selling"), a clause that only gives the context of the news
// ("exchange goes down as bitcoin surges"), another asset's move ("gold hits a record"), or sarcasm.
// Each frame discounts the phrase by a factor (0: it counts nothing) and names itself for the trace; a
// discounted phrase is also too weak to post on alone (corroboration.ts). The frames of a whole text
// (sarcasm, explainers, lists) are in text-frames.ts.

import { CRYPTO } from './crypto-names.js';
import { firstMatch } from './first-match.js';
import { wordsAfter } from './nearby-words.js';

export interface Frame {
  /** The trace's word for it: "question", "explainer", "denied", "someone else's position"… */
  why: string;
  /** The words that showed it, as written. */
  cue: string;
  factor: number;
  /** The phrase then cannot carry a post alone. */
  weakens: boolean;
  /**
   * The frame is the phrase's own, not the whole text's: a context clause ("after it plunged") is still
   * news of the text, so it may corroborate another cue, but it counts a quarter against a cue that
   * stands alone (corroboration.ts).
   */
  own?: boolean;
}

// "Asia closes mixed", "Netflix gains, Spotify falls": moves reported both ways say no one direction.
const MIXED = /\bmixed\b/i;

// Views reported as split ("analysts are divided", "some expect a rally while others see a correction")
// say no direction, whichever side the lexicon happens to read.
// Four patterns, not one alternation: recheck reads each alone as linear, the union it could not clear.
const SPLIT = [
  /\b(?:split|divided)\b(?! (?:of|between the))|\b(?:while|but|and) others\b/i,
  /\bsome\b.{1,60}\bothers\b/i,
  /\bone\b.{1,60}\banother\b/i,
  /\bcritics\b.{1,60}\b(?:fans|supporters|proponents)\b/i,
];
// "Fined for failures unrelated to crypto": the text says whose news it is.
const NOT_CRYPTO =
  /\b(?:unrelated to|not related to|nothing to do with)\s+(?:crypto\w*|bitcoin|digital assets)\b|\bnon-crypto\b/i;

// "If the ETF is approved", "what would happen if", "could a payout crash the market".
// "Fears of a sell-off", "hoping for a dip": what is feared or hoped for has not happened.
const HYPOTHETICAL =
  /\b(?:if|unless|whether|in case|what if|would(?:n't)?|could|might|suppose|(?:fears?|worries|risk|threat|concerns?) (?:of|about|over)|hop(?:e|es|ing) for|pray(?:s|ing)? for|wish(?:ing)? for)\b/i;
// "Imagine paying taxes on a coin that went down 90%", "Imagine owning X while the price tanked": a
// scene the reader is asked to picture is a joke or a jab at its owners, not a move the author reports.
// A sentence that opens with it is imagined to its end ("imagine holding it while it soared 400%").
const IMAGINED = /\bimagin(?:e|ing)\b/i;
const IMAGINED_SENTENCE = /^[\W_]*imagin(?:e|ing)\b/i;
// "Thinking about selling my ADA, thoughts?": a trade the author is still weighing says no direction yet.
const UNDECIDED =
  /\b(?:thinking (?:about|of)|considering|debating (?:whether|if)|tempted to|should i|on the fence about)\b/i;
// "A ban would be unlikely to pass": the verb right after the phrase.
const HYPOTHETICAL_AFTER = /^\s*(?:\S+\s+){0,3}(?:would|could|might)\b/i;
// A denial or a falsehood anywhere in the clause: the phrase names what did not happen.
const DENIED =
  /\b(?:den(?:y|ies|ied|ying)|dismiss(?:es|ed|ing)? (?:the\s+)?(?:rumou?rs?|reports?|claims?|speculation)|(?:is|are|was|were|turn(?:s|ed)? out(?: to be)?|proved?n?|proves) (?:false|fake|untrue|a hoax|baseless)|false (?:reports?|rumou?rs?|claims?)|fake (?:news|press release|reports?|post|tweet|announcement|screenshot)|hoax|debunk(?:s|ed)?|not true)\b/i;
const FALSE =
  /\b(?:(?:is|are|was|were|turn(?:s|ed)? out(?: to be)?|proved?n?|proves) (?:false|fake|untrue|a hoax|baseless)|hoax|debunk(?:s|ed)?)\b/i;
// "Influencer falsely claims Amazon accepts bitcoin": the phrase after it is what a false claim said.
// Only before the phrase, not anywhere as DENIED: in "charged with falsely claiming" the charge is real.
const FALSE_CLAIM =
  /\b(?:falsely|wrongly|mistakenly|erroneously)\s+(?:\w+\s+)?(?:claim|announc|report|stat|sa(?:y|id)|post|tweet|suggest|assert|alleg)\w*/i;
// Words about other people's positions are theirs, not the author's: "my bearish friend", "bears party",
// "everyone's long".
const SOMEONE_ELSE =
  /\b(?:my\s+(?:\w+\s+)?(?:friends?|uncle|aunt|dad|mom|mum|wife|husband|boss|cowork\w*|colleagues?|brother|sister|neighbou?rs?|barber|cousin)|every(?:one|body)(?:'s| is| are)?|half (?:of )?my timeline|the timeline|retail(?: is| are)?|people(?: are)?|the crowd|crypto twitter|ct(?: is)?|reddit|influencers|normies|the (?:bulls|bears)(?: on here)?|bears|bulls|they(?:'re| are)?)\s*$/i;
// "My bearish friend", "bullish uncles": the stance word names whom it belongs to.
const HELD_BY =
  /^(?:'s)?\s+(?:\w+\s+)?(?:friends?|uncles?|aunts?|dads?|moms?|wife|husband|boss|cowork\w*|colleagues?|brothers?|sisters?|neighbou?rs?|cousins?|followers|folks|crowd|people|twitter|influencers)(?:'s)?\b/i;
// "A movie about the crypto crash": the phrase is what a film, a book or a show is about.
const STORY =
  /\b(?:movie|film|documentary|book|podcast|series|show|novel|play|song|exhibition|course) (?:about|on|of)\b(?:\s+\S+){0,4}\s*$/i;
// Charges and arrests of criminals are news about them, not about a coin.
const CRIMINALS =
  /\b(?:rings?|gangs?|syndicates?|scammers|fraudsters|thieves|suspects|phishers|crime groups?|money mules|hackers who)\b/i;
const LEGAL_RULES = new Set(['macro.lawsuit', 'fraud.charged', 'regulation.enforcement']);
// "Collapsed lender's ex-CEO sentenced", "FTX founder found guilty": the trial of the people of a firm that
// already failed is the end of an old story; the firm's coins and customers took the loss years before.
const FAILED_FIRM_PEOPLE =
  /\b(?:ftx|alameda|celsius|voyager|terra(?:form)?(?: labs)?|three arrows|3ac|blockfi|mt\.? gox|bitconnect|quadriga(?:cx)?|thodex)(?:['\u2019]s)?\s+(?:(?:former|ex-|co-?)\s?)?(?:founders?|ceo|chief executive|executives?|execs?|boss|cto|cfo)\b/i;
// A clause's second part often gives only the context of the news: "goes down as bitcoin surges".
const CONTEXT =
  /(?:^|\s)(?:as(?!\s+(?:well|much|many|long|soon|far|part|high|low|a result|of|if|though|such|usual|collateral|legal tender|payment|a (?:hedge|store|safe|way|means|result|share|percentage))\b)|amid|after|following|ahead of|on hopes? of|on fears? of)\s/i;
// "Lawmakers urge El Salvador to drop bitcoin", "senator proposes a ban", "IMF calls on it to scrap the
// law": a call or a proposal is not the decision it asks for, and many are never taken.
const PROPOSED =
  /\b(?:urg(?:e|es|ed|ing)|propos(?:e|es|ed|ing|als?)|calls? (?:on|for)|call(?:ed|ing) (?:on|for)|push(?:es|ed|ing)? (?:for|to)|lobb(?:y|ies|ied|ying) (?:for|to)|petitions?|petition(?:ed|ing)|recommend(?:s|ed|ing)?)\b/i;
const PROPOSED_WORDS = 6;
// "Mt. Gox repayments begin, 140,000 BTC to be distributed": creditors repaid in coins hold supply they
// may sell, bad news for the coin as often as good news for the firm's customers.
const PAID_IN_COINS =
  /\bin (?:kind|bitcoin(?: cash)?|btc|bch|ether|eth|crypto|coins|tokens)\b|\d[\d,.]*\s?(?:k|m|million|thousand)?\s(?:btc|bitcoins?|bch|eth|ether|coins|tokens)\b/i;
// Other assets' moves, named just before the move word.
const OTHER_ASSET =
  /\b(?:gold|silver|copper|oil|crude|brent|wti|natural gas|nasdaq|s&p(?: 500)?|dow(?: jones)?|ftse|nikkei|dax|hang seng|treasur(?:y|ies)|bonds?|equities|the yen|the euro|the pound|the rupee|nvidia|tesla|apple|microsoft|amazon)(?:'s)?(?:\s+(?:prices?|futures|shares|stocks?|index))?\s+(?:\S+\s+){0,1}$/i;

// "Coinbase stock slides 9% after the suit", "miner shares jump": a crypto firm's shares moving are its
// equity, not a coin. Only a firm named by its crypto word: "$ZS shares +4%" is the news of a stock feed.
const EQUITY = /(\S+)\s+(?:shares|stocks?)\s+(?:\S+\s+){0,1}$/i;
// "Crypto stocks open higher", "bitcoin stocks rally": the trade's stocks as a group move with its coins.
const TRADE_WORD = /^(?:crypto\w*|blockchain|web3|digital|bitcoin|btc|ether|eth|ethereum)$/i;
// "Issuer wins its case over the fund's rejection", "investors sue the lender over the hack": what a case
// is over happened before it and is its grievance, not the news; the case's own words carry the news.
const CASE_OVER =
  /\b(?:sues?|sued|suing|lawsuits?|suits?|cases?|challenges?|challenged|appeals?|appealed|wins?|won|ruling|rules|ruled)\b(?:\s+\S+){0,6}\s+over(?:\s+\S+){0,3}\s*$/i;
// "Is the rally over?", "are the outflows finally over?": a question whether something has ended puts it in
// doubt; its phrase says neither that it goes on nor that it stopped.
const OVER_QUESTION = /^(?:\s+\S+){0,4}\s+over\s*\?/i;

// "Weathered years of FUD", "survived another crash": what was withstood is the past of a story whose
// point is the other way, so the phrase counts nothing.
const WITHSTOOD =
  /\b(?:survived?|survives|surviving|weather(?:s|ed|ing)?|withst(?:ood|ands?|anding)|shrug(?:s|ged|ging) off|outlast(?:s|ed)?|endured?|endures)\b/i;
// "My exchange froze my withdrawal and wants more ID documents": a hold on the author's own account, in a
// post about a verification or a support ticket, is one customer's case, not an exchange halting
// withdrawals for everyone.
const HALT_RULES = new Set(['fundamental.withdrawals-halted', 'exchange.service-halted', 'exchange.cannot-withdraw']);
const OWN_ACCOUNT =
  /\b(?:my|our)\s+(?:\w+\s+)?(?:withdrawals?|accounts?|funds|money|coins|deposits?|transfers?|wallet)\b/i;
const SUPPORT_CASE =
  /\b(?:kyc|verif(?:y|ied|ication)|documents?|selfie|proof of (?:address|income|funds)|support|tickets?|compliance)\b/i;
// "The banks are the real scam", "fiat is the ponzi": in a clause that names no coin, a fraud word
// about money's old institutions is an argument for crypto, not an allegation against it.
const OLD_MONEY =
  /\b(?:banks?|banking|bankers|fiat|the fed|federal reserve|central banks?|the dollar|governments?|wall street|the stock market|insurance|pensions?|social security)\b/i;
// "Court sets hearing date for the bankruptcy plan", "founder's trial postponed to March": a date set or
// moved in a case is the calendar of a decision not yet taken; the case's words (bankruptcy, lawsuit,
// charges) are old.
const COURT_DATE =
  /\b(?:(?:sets?|setting|schedul(?:es|ed|ing)|reschedul(?:es|ed|ing)|postpon(?:es|ed|ing)|delay(?:s|ed|ing)|adjourn(?:s|ed|ing)|push(?:es|ed)? back)\s+(?:\S+\s+){0,3}?(?:hearings?|trials?|court dates?|oral arguments?|sentencing)|(?:hearings?|trials?|sentencing|oral arguments?)\s+(?:\S+\s+){0,8}?(?:(?:is|was|has been|will be|to be|date)\s+)?(?:set|scheduled|rescheduled|postponed|delayed|adjourned|pushed back))\b/i;

// "Has to reclaim 70k before anyone calls this a bull market": a condition not yet met says the move
// has not happened, and the name of the market is what nobody calls it yet.
const CONDITION = /\b(?:has to|have to|needs? to|must)\b/i;
const NOT_CALLED_YET = /\bbefore\s+(?:anyone|anybody|we|you|i|people)\s+(?:can\s+)?(?:calls?|say|says|declares?)\b/i;

export interface FrameQuestion {
  rule: { id: string; stance?: boolean; ownsNegation?: boolean; cue?: string };
  clause: string;
  start: number;
  end: number;
  question: boolean;
  /** Whether the clause reads a phrase of its own before the given index: the news a context clause serves. */
  newsBefore: (index: number) => boolean;
  /** The text names a coin: another asset's move is then not the news. */
  namesCoin: boolean;
  whole: string;
  /** The sentence the phrase's clause is in. */
  sentence: string;
}

/** The frame around the phrase at [start, end) of the clause, if one changes what it says. */
export function frameOf(q: FrameQuestion): Frame | undefined {
  const { rule, clause, start, end, question, newsBefore, namesCoin, whole, sentence } = q;
  const sentenceElsewhere = sentence.replace(clause, ' ');
  const notCrypto = NOT_CRYPTO.exec(whole);
  if (notCrypto) return { why: 'happened to someone else', cue: notCrypto[0], factor: 0, weakens: true };
  const split = rule.stance ? firstMatch(SPLIT, whole) : null;
  if (split) return { why: 'views split', cue: split[0], factor: 0, weakens: true };
  const before = clause.slice(0, start);
  const outside = `${before} ${clause.slice(end)}`;
  if (rule.stance) {
    const others = SOMEONE_ELSE.exec(wordsBefore(before, 4)) ?? HELD_BY.exec(clause.slice(end));
    if (others) return { why: "someone else's position", cue: others[0].trim(), factor: 0, weakens: true };
  }
  const withstood = WITHSTOOD.exec(wordsBefore(before, 5));
  if (withstood) return { why: 'withstood', cue: withstood[0], factor: 0, weakens: true };
  if (HALT_RULES.has(rule.id)) {
    const around = `${wordsBefore(before, 2)}${clause.slice(start, end)} ${wordsAfter(clause, end, 3)}`;
    const account = OWN_ACCOUNT.exec(around);
    const support = account ? SUPPORT_CASE.exec(whole) : null;
    if (account && support)
      return { why: "one customer's support case", cue: `${account[0]} … ${support[0]}`, factor: 0, weakens: true };
  }
  if (rule.id.startsWith('fraud.')) {
    const own = `${before} ${clause.slice(end)}`;
    const oldMoney = CRYPTO.test(own) ? null : (OLD_MONEY.exec(own) ?? OLD_MONEY.exec(sentenceElsewhere));
    if (oldMoney) return { why: 'happened to someone else', cue: oldMoney[0], factor: 0, weakens: true };
  }
  const courtDate = rule.stance || rule.cue === 'price move' ? null : COURT_DATE.exec(segmentOf(clause, start, end));
  if (courtDate) return { why: 'a court date set, no decision', cue: courtDate[0], factor: 0, weakens: true };
  const notYet = NOT_CALLED_YET.exec(before) ?? (rule.stance ? null : CONDITION.exec(before));
  if (notYet) return { why: 'a condition not yet met', cue: notYet[0], factor: 0, weakens: true };
  const story = STORY.exec(wordsBefore(before, 6));
  if (story) return { why: 'the subject of a story', cue: story[0].trim(), factor: 0, weakens: true };
  if (LEGAL_RULES.has(rule.id)) {
    const criminals = CRIMINALS.exec(outside);
    if (criminals) return { why: 'happened to someone else', cue: criminals[0], factor: 0, weakens: true };
  }
  if (LEGAL_RULES.has(rule.id) || rule.id.startsWith('fraud.')) {
    const people = FAILED_FIRM_PEOPLE.exec(outside);
    if (people) return { why: 'the trial of a failed firm', cue: people[0], factor: 0, weakens: true };
  }
  if (rule.cue === 'price move') {
    const mixed = MIXED.exec(whole);
    if (mixed) return { why: 'mixed moves', cue: mixed[0], factor: 0.5, weakens: true };
  }
  if (rule.cue === 'price move' && namesCoin) {
    const asset = OTHER_ASSET.exec(wordsBefore(before, 5)) ?? cryptoEquity(wordsBefore(before, 4));
    if (asset) return { why: 'another asset', cue: asset[0].trim(), factor: 0, weakens: true };
  }
  if (!LEGAL_RULES.has(rule.id) && rule.id !== 'macro.legal-win') {
    const caseOver = CASE_OVER.exec(wordsBefore(before, 12));
    if (caseOver) return { why: 'what a case is over', cue: caseOver[0].trim(), factor: 0, weakens: true };
  }
  const overQuestion = question ? OVER_QUESTION.exec(` ${clause.slice(end)}`) : null;
  if (overQuestion) return { why: 'asks whether it is over', cue: overQuestion[0].trim(), factor: 0, weakens: true };
  if (!rule.ownsNegation) {
    // A falsehood told in another clause of the sentence ("…: the post was fake") undoes the event it
    // reports, not a price move beside it.
    const elsewhere = rule.cue === 'price move' ? null : FALSE.exec(sentenceElsewhere);
    const denied = DENIED.exec(segmentOf(clause, start, end)) ?? elsewhere;
    if (denied) return { why: 'denied', cue: denied[0], factor: 0, weakens: true };
  }
  const falseClaim = rule.ownsNegation ? null : FALSE_CLAIM.exec(before);
  if (falseClaim) return { why: 'denied', cue: falseClaim[0], factor: 0, weakens: true };
  // "Scam site falsely claims a retailer accepts dogecoin": the scam is the claimant's, not the coin's.
  const claimant = rule.id === 'fraud.scheme' ? FALSE_CLAIM.exec(clause.slice(end, end + 40)) : null;
  if (claimant) return { why: 'the author of a false claim', cue: claimant[0], factor: 0, weakens: true };
  if (rule.id === 'exchange.repaid') {
    const coins = PAID_IN_COINS.exec(whole);
    if (coins) return { why: 'repaid in coins creditors may sell', cue: coins[0], factor: 0, weakens: true };
  }
  const proposed = rule.stance || rule.cue === 'price move' ? null : PROPOSED.exec(wordsBefore(before, PROPOSED_WORDS));
  if (proposed) return { why: 'a call or a proposal', cue: proposed[0], factor: 0.5, weakens: true };
  const undecided = UNDECIDED.exec(wordsBefore(before, 6));
  if (undecided) return { why: 'undecided', cue: undecided[0], factor: 0, weakens: true };
  const imagined = IMAGINED.exec(before) ?? IMAGINED_SENTENCE.exec(sentence);
  if (imagined) return { why: 'imagined', cue: imagined[0], factor: 0, weakens: true };
  const hypothetical = HYPOTHETICAL.exec(before) ?? HYPOTHETICAL_AFTER.exec(clause.slice(end));
  if (hypothetical) return { why: 'hypothetical', cue: hypothetical[0], factor: 0.5, weakens: true };
  if (question) return { why: 'question', cue: '?', factor: 0.5, weakens: true };
  const context = CONTEXT.exec(before);
  if (context && newsBefore(context.index))
    return { why: 'context clause', cue: context[0].trim(), factor: 0.5, weakens: true, own: true };
  return undefined;
}

// A denial covers what it denies, not the news beside it: "had denied solvency problems before halting
// withdrawals" still halted them.
const SEGMENT_BREAK = /\s(?:as|amid|after|following|ahead of|before|while|when|since|and then)\s/gi;

/** The part of the clause the phrase is in, between context words, without the phrase itself. */
function segmentOf(clause: string, start: number, end: number): string {
  let from = 0;
  let to = clause.length;
  for (const m of clause.matchAll(SEGMENT_BREAK)) {
    if (m.index + m[0].length <= start) from = m.index + m[0].length;
    else if (m.index >= end && to === clause.length) to = m.index;
  }
  return `${clause.slice(from, start)} ${clause.slice(end, to)}`;
}

/** "Coinbase shares", "miner stocks" right before the move word: a crypto firm's equity. */
function cryptoEquity(words: string): RegExpExecArray | null {
  const equity = EQUITY.exec(words);
  const owner = equity?.[1];
  if (!owner || owner.startsWith('$') || !CRYPTO.test(owner) || TRADE_WORD.test(owner)) return null;
  return equity;
}

function wordsBefore(text: string, n: number): string {
  return `${text.trimEnd().split(/\s+/).slice(-n).join(' ')} `;
}
