import { anyOf, GAP, rule, type LexiconRule } from './lexicon-rule.js';

// Companies, banks and funds: money raised, firms bought, support added or withdrawn, coins bought or
// sold for a treasury. A partnership is not here: announced every day, it rarely moves a price (it is
// a weak rule in the fundamental table).

const COINS = anyOf(
  'btc',
  'bitcoins?',
  'eth',
  'ether',
  'ethereum',
  'sol',
  'solana',
  'xrp',
  'bnb',
  'crypto',
  'tokens?',
  'coins?',
);
// Selling "crypto" or "tokens" is as often a service offered as a treasury sold: only coins by name.
const HELD_COINS = anyOf('btc', 'bitcoins?', 'eth', 'ether', 'ethereum', 'sol', 'solana', 'xrp', 'bnb');
const AMOUNT = '(?:\\$?[\\d,.]+\\s?(?:k|m|mn|million|b|bn|billion)?\\+?\\s+(?:(?:worth\\s+)?(?:of|in)\\s+)?)';
const SERVICE = anyOf(
  'support',
  'custody',
  'trading',
  'staking',
  'payments?',
  'settlement',
  'access',
  'etfs?',
  'lending',
  'collateral',
  'purchases',
  'buying and selling',
);

export const corporateRules = (): readonly LexiconRule[] => [
  rule({
    id: 'corporate.funding',
    patterns: [
      'rais(?:es|ed|ing)\\s+(?:\\$|€|£|usd\\s?)\\d',
      `rais(?:es|ed|ing)${GAP(25)}\\b(?:in|from)\\s+(?:a\\s+|its\\s+)?(?:seed|series|strategic|funding|private|venture|pre-seed)`,
      'series [a-f](?: round| funding| extension)?',
      '(?:pre-)?seed round',
      'funding round',
      `clos(?:es|ed)${GAP(30)}\\bround`,
      `secur(?:es|ed)${GAP(30)}\\b(?:funding|investment|financing|credit (?:line|facility)|backing|loan)`,
      '(?:credit line|credit facility)',
      `at a${GAP(15)}\\bvaluation`,
    ],
    weight: 0.35,
    method: 'fundamental',
    label: 'funding raised',
    // Rounds are raised every day by firms whose coin, if any, is not named: alone, a round of "a crypto
    // startup" is the firm's news. No amount makes it a coin's: on train.csv, 4 of the 5 rounds of $140M
    // to $1.6B were labelled neutral.
    weakWithoutCoin: 'a funding round of a firm, no coin named',
  }),
  rule({
    id: 'corporate.acquisition',
    patterns: [
      'acquir(?:es|ed|ing)(?!\\s+(?:another\\s+|more\\s+)?\\$?[\\d,.]+)',
      'to acquire',
      'acquisition of',
      `(?:in|for) a \\$?[\\d.,]+\\s?(?:[mb]n?|million|billion)?${GAP(10)}\\bdeal`,
      'takeover',
      'merg(?:es|er) with',
    ],
    weight: 0.35,
    method: 'fundamental',
    label: 'acquisition',
  }),
  rule({
    id: 'corporate.adds-support',
    patterns: [
      `(?:adds?|added|adding|launch(?:es|ed|ing)?|roll(?:s|ed)? out|introduc(?:es|ed)|enabl(?:es|ed)|opens?|offers?|to offer|will offer|expands?)${GAP(20)}\\b${SERVICE}`,
      // "Now let's celebrate" is a suggestion: the apostrophe is not a firm letting anyone do anything.
      `now (?:lets?(?![\u2019'])|allows?|accepts?|supports?|offers?)`,
      `(?:to|will|now|begins? to|starts? to) support${GAP(20)}\\b(?:crypto|bitcoin|stablecoins?|${SERVICE})`,
      'institutional (?:adoption|demand|buying|inflows)',
      `(?:lets?|letting|allow(?:s|ing)?)${GAP(20)}\\b(?:users|customers|clients|savers|merchants|investors|holders)${GAP(25)}\\b(?:to\\s+)?(?:buy|sell|pay|send|hold|trade|put|stake|accept|use|invest)`,
      `(?:users|customers|clients|savers|merchants)${GAP(20)}\\bcan (?:now )?(?:buy|sell|pay|send|hold|trade|put|stake|accept|use|invest)`,
      `(?:as|for) collateral`,
      `integrat(?:es|ed|ing)${GAP(20)}\\bwallets?`,
      `(?:builds?|launch(?:es|ed)?|deploys?|tokeni[sz](?:es|ed|ing|e))${GAP(40)}\\bon (?:ethereum|solana|bitcoin|avalanche|base|polygon|ton|the xrp ledger)`,
      `(?:adds?|added)${GAP(30)}\\bto (?:its|their) (?:trust|fund|etf|index|lineup|product)`,
      `discloses?${GAP(20)}\\bstake`,
    ],
    weight: 0.4,
    method: 'fundamental',
    label: 'firm adds crypto support',
    negated: { factor: -0.6, label: 'support denied' },
  }),
  rule({
    id: 'corporate.pulls-back',
    patterns: [
      'cut(?:s|ting)? ties',
      `end(?:s|ed|ing)?${GAP(15)}\\b(?:support|services|partnership|relationship|access)`,
      // "drops plans to add a wallet": what was planned is not added.
      `(?:stops?|stopped|pauses?|paused|drops?|dropped|abandons?|abandoned|scraps?|scrapped|shelves?|shelved|ditch(?:es|ed)|ax(?:es|ed)|exits?|exited|quits?|suspends?|suspended|cancels?|cancell?ed)${GAP(25)}\\b(?:its\\s+|the\\s+)?(?:plans?|project|desk|support|services|program|ipo|offering|rollouts?|integration|crypto|stablecoin|business|unit|operations|blockchain)(?:\\s+(?:to|for)\\s+[^,;.]{1,40})?`,
      'wind(?:s|ing)? down',
      'wound down',
      `remov(?:es|ed|ing)${GAP(25)}\\b(?:support|crypto|access)`,
      'pull(?:s|ed|ing)? (?:out|the plug)',
      `exit(?:s|ed|ing)?${GAP(20)}\\bmarket`,
      'stops? serving',
      `clos(?:es|ed|ing)${GAP(20)}\\b(?:accounts?|office|operations|desk|doors)`,
      'lay(?:s|ing)? off',
      'laid off',
      'layoffs?',
      'job cuts',
      'cuts? [\\d,]+ jobs',
      '(?:slash|cut|trim)(?:s|es|ed|ming|ting)? (?:about |some |nearly )?(?:\\d+% of |a (?:third|quarter|fifth|tenth) of |half (?:of )?)?(?:its\\s+)?(?:staff|jobs|workforce|headcount|employees)',
      'down round',
      `(?:slash\\w*|cut\\w*|halv\\w*|mark\\w* down)${GAP(20)}\\bvaluation`,
      `(?:stops?|block(?:s|ed)?|bars?|barred)${GAP(10)}\\b(?:customers|users|clients)${GAP(10)}\\bfrom`,
    ],
    weight: -0.45,
    method: 'fundamental',
    label: 'firm pulls back from crypto',
    negated: { factor: -0.4, label: 'support kept' },
  }),
  rule({
    id: 'corporate.treasury-buy',
    patterns: [
      `(?:buys?|bought|purchas(?:es|ed)|adds?|added|acquir(?:es|ed)|scoops? up)\\s+(?:another\\s+|more\\s+|an additional\\s+|a further\\s+)?${AMOUNT}${COINS}`,
      // "buys 12,000 more bitcoin": the amount before "more".
      `(?:buys?|bought|purchas(?:es|ed)|adds?|added|acquir(?:es|ed)|scoops? up)\\s+${AMOUNT}more\\s+${COINS}`,
      `(?:buy|buys|buying|bought)${GAP(30)}\\b${COINS}${GAP(20)}\\bfor (?:its|their) (?:treasury|balance sheet|reserves?)`,
      `(?:raises?|increases?|boosts?|doubles?|lifts?)${GAP(15)}\\b(?:stake|holdings|position)`,
      `(?:now holds|lifting (?:its |their )?holdings|holdings? (?:above|past|top|to))`,
      `invest(?:s|ed|ing)?${GAP(20)}\\b(?:in|into)\\s+(?:(?:a|an|the|spot|its first)\\s+){0,3}(?:bitcoin|btc|ether|eth|crypto|solana|sol)(?:\\s+etfs?)?`,
    ],
    weight: 0.45,
    method: 'fundamental',
    label: 'companies buying coins',
  }),
  rule({
    id: 'corporate.treasury-sell',
    patterns: [
      `(?:sells?|sold|selling|dumps?|dumped|offload\\w*|unload\\w*)${GAP(25)}\\b(?:(?:its|their|his|her|entire|all|most|of|part|some|the|remaining|whole)\\s+)*(?:${HELD_COINS}|holdings?|reserves?|stash|position|stake|treasury)`,
      `(?:sells?|sold|selling)\\s+${AMOUNT}${HELD_COINS}`,
    ],
    weight: -0.5,
    method: 'fundamental',
    label: 'treasury selling',
  }),
  rule({
    id: 'corporate.strong-results',
    patterns: [
      'record (?:quarterly |annual |monthly )?(?:revenue|profits?|earnings|sales|trading volumes?|users)',
      '(?:beats?|beat|tops?|topped|smash(?:es|ed)) (?:earnings |revenue |profit )?(?:estimates|expectations|forecasts)',
      `(?:revenue|profits?|earnings|sales)${GAP(10)}\\b(?:jump|soar|surg|doubl|tripl|climb|ris|rose)\\w*`,
    ],
    weight: 0.35,
    method: 'fundamental',
    label: 'strong results',
  }),
  rule({
    id: 'corporate.weak-results',
    patterns: [
      '(?:miss(?:es|ed)?) (?:earnings |revenue |profit )?(?:estimates|expectations|forecasts)',
      `(?:revenue|profits?|earnings|sales|trading volumes?)${GAP(10)}\\b(?:fall|fell|drop|plung|slump|declin|shrink|shrank|tumbl|halv)\\w*`,
      '(?:quarterly |net )?loss(?:es)? (?:widens?|widened|deepens?|deepened)',
    ],
    weight: -0.35,
    method: 'fundamental',
    label: 'weak results',
  }),
  rule({
    id: 'corporate.ipo',
    patterns: [
      'files? for (?:an? )?(?:ipo|initial public offering)',
      '(?:goes|going|to go) public',
      `(?:to\\s+|approval to\\s+)?list on (?:the )?(?:nasdaq|nyse|new york stock exchange|london stock exchange)`,
    ],
    weight: 0.3,
    method: 'fundamental',
    label: 'crypto firm going public',
  }),
];
