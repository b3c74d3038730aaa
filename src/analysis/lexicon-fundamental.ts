import { anyOf, EXCHANGES, GAP, PAUSED, rule, type LexiconRule } from './lexicon-rule.js';

const ETF = '(?:spot\\s+)?(?:\\w+\\s+)?etfs?';
const HALT = anyOf(...PAUSED, 'stop(?:s|ped|ping)?', 'block(?:s|ed|ing)?');
const SHIPPED = anyOf(
  ...['launch\\w*', 'goes live', 'went live', 'is live', 'live'],
  ...['activat\\w*', 'complet\\w*', 'ships?', 'shipped', 'deploy\\w*', 'success\\w*'],
);
const RELEASE = anyOf('mainnet', 'upgrade', 'hard ?fork', 'network upgrade', 'v\\d');
const LISTING_VENUES = '(?:binance|coinbase|upbit|robinhood|kraken|okx|bybit|bithumb|kucoin|gemini)';

export const fundamentalRules = (): readonly LexiconRule[] => [
  rule({
    id: 'fundamental.etf-inflows',
    patterns: [`etfs?${GAP(30)}\\b(?:net\\s+)?inflows?`, `inflows?\\s+(?:in|into|to|for)\\s+${ETF}`],
    weight: 0.5,
    method: 'fundamental',
    label: 'ETF inflows',
    negated: { factor: -0.4, label: 'ETF inflows fading' },
  }),
  // Inflows that slow or dry up are demand fading: the longer phrase outweighs "ETF inflows" inside it.
  rule({
    id: 'fundamental.etf-inflows-slow',
    patterns: [
      `etfs?${GAP(30)}\\binflows?\\s+(?:slow(?:s|ed|ing)?|cool(?:s|ed|ing)?|dr(?:y|ies|ied|ying) up|shrink(?:s|ing)?|shrank|fall(?:s|ing)?|fell|drop(?:s|ped|ping)?|declin(?:e|es|ed|ing)|plung(?:e|es|ed|ing)|tumbl(?:e|es|ed|ing)|sink(?:s|ing)?|sank|thin(?:s|ned|ning)?)\\b`,
    ],
    weight: -0.3,
    method: 'fundamental',
    label: 'ETF inflows slowing',
  }),
  rule({
    id: 'fundamental.etf-outflows',
    patterns: [`etfs?${GAP(30)}\\b(?:net\\s+)?(?:outflows?|redemptions?)`, `outflows?\\s+(?:from|in|out of)\\s+${ETF}`],
    weight: -0.5,
    method: 'fundamental',
    label: 'ETF outflows',
    negated: { factor: -0.4, label: 'ETF outflows easing' },
  }),
  rule({
    id: 'fundamental.etf-approval',
    patterns: [
      `etfs?${GAP(40)}\\b(?:approv\\w*|green[- ]?light\\w*|go-ahead|debut\\w*|(?:begins?|starts?) trading)`,
      `(?:approv\\w*|green[- ]?light\\w*)${GAP(40)}\\b${ETF}`,
    ],
    weight: 0.6,
    method: 'fundamental',
    label: 'ETF approval',
    negated: { factor: -0.5, label: 'ETF approval delayed' },
    lacking: { factor: -0.5, label: 'ETF approval still pending' },
  }),
  rule({
    id: 'fundamental.etf-rejection',
    patterns: [
      `(?:reject\\w*|den(?:y|ies|ied|ial of)|block(?:s|ed)?|turn(?:s|ed)? down)${GAP(40)}\\b${ETF}(?:\\s+(?:approvals?|applications?|bids?|filings?|proposals?))?`,
      `etfs?${GAP(40)}\\b(?:rejected|denied|blocked|turned down|rejection|denial)`,
    ],
    weight: -0.6,
    method: 'fundamental',
    label: 'ETF rejected',
    ownsNegation: true,
  }),
  rule({
    id: 'fundamental.etf-filing',
    patterns: [`fil(?:es|ed|ing)\\s+(?:for|to launch)${GAP(25)}\\betfs?`, `etfs?\\s+(?:filings?|applications?)`],
    weight: 0.25,
    method: 'fundamental',
    label: 'ETF filing',
    negated: { factor: -1.2, label: 'ETF filing withdrawn' },
  }),
  rule({
    id: 'fundamental.listing',
    patterns: [
      `(?:list(?:s|ed|ing)?|to list|adds?|added)${GAP(30)}\\b(?:on|by|to)\\s+${LISTING_VENUES}`,
      `${LISTING_VENUES}\\s+(?:will\\s+|to\\s+)?(?:lists?|listing|adds?|added|to list)`,
      '(?:exchange|spot|perpetual|futures)\\s+listing',
    ],
    weight: 0.45,
    method: 'fundamental',
    label: 'exchange listing',
    negated: { factor: -0.6, label: 'no listing' },
    lacking: { factor: -0.6, label: 'no listing' },
  }),
  rule({
    id: 'fundamental.delisting',
    patterns: [
      'delist\\w*',
      `remov(?:e|es|ed|ing)${GAP(30)}\\b(?:trading|pairs?|markets?)\\s+(?:for|of)`,
      `(?:to\\s+|will\\s+)?remov(?:e|es|ed|ing)${GAP(25)}\\b(?:coins?|tokens?)`,
      `(?:ends?|drops?|stops?) trading (?:for|of|in)`,
      `remov(?:e|es|ed|ing)${GAP(30)}\\bfrom\\s+(?:its\\s+|the\\s+)?(?:platform|app|${EXCHANGES})`,
    ],
    weight: -0.55,
    method: 'fundamental',
    label: 'exchange delisting',
  }),
  // A hack whose losses are made good is the recovery, not the hack: the longer phrase outweighs "hack".
  rule({
    id: 'fundamental.hack-covered',
    patterns: [
      `(?:hack|exploit|breach|attack)\\w*${GAP(20)}\\b(?:losses|funds|victims|users)${GAP(15)}\\b(?:covered|reimbursed|refunded|repaid|recovered|returned|restored|made whole)`,
      `(?:cover|covers|covered|covering|reimburs\\w*|refund\\w*)${GAP(20)}\\b(?:hack|exploit|breach|attack)\\w*\\s+(?:losses|victims)`,
      `(?:stolen|hacked|drained|exploited) funds${GAP(15)}\\b(?:returned|recovered|refunded)`,
    ],
    weight: 0.35,
    method: 'fundamental',
    label: 'hack losses covered',
  }),
  rule({
    id: 'fundamental.unlock',
    patterns: ['(?:token\\s+|cliff\\s+|vesting\\s+)?unlock(?:s|ed|ing)?', 'vesting (?:cliff|release)s?'],
    weight: -0.45,
    method: 'fundamental',
    label: 'token unlock adds supply',
    negated: { factor: -0.4, label: 'token unlock postponed' },
  }),
  rule({
    id: 'fundamental.hack',
    patterns: [
      'hack(?:s|ed|ers?)?',
      'exploit(?:s|ed)?',
      'drain(?:s|ed|ing)?',
      '(?:security|data)\\s+breach(?:es)?',
      'stolen',
      'compromised',
      // Plain "attack" is also a chart word ("bulls attack $70K"), so only named attacks count.
      '(?:51%|sybil|phishing|governance|flash[- ]loan|oracle|replay|ddos|cyber)\\s*attacks?',
    ],
    weight: -0.75,
    method: 'fundamental',
    label: 'hack drains funds',
  }),
  rule({
    id: 'fundamental.rug-pull',
    patterns: ['rug[\\s-]?pull(?:s|ed)?', 'exit scam'],
    weight: -0.7,
    method: 'fundamental',
    label: 'rug pull',
  }),
  rule({
    id: 'fundamental.withdrawals-halted',
    patterns: [
      `${HALT}\\s+(?:all\\s+)?(?:\\w+\\s+)?withdrawals?`,
      `(?:exchange\\s+|all\\s+)?withdrawals?${GAP(25)}\\b${HALT}`,
    ],
    weight: -0.6,
    method: 'fundamental',
    label: 'withdrawals halted',
    negated: { factor: -0.5, label: 'withdrawals resumed' },
  }),
  rule({
    id: 'fundamental.withdrawals-resumed',
    patterns: [
      `(?:exchange\\s+|all\\s+)?withdrawals?${GAP(20)}\\b(?:resum\\w*|reopen\\w*|restor\\w*|back online)`,
      // "…after a six-hour pause" belongs to the resumption, not to a halt of its own.
      `(?:resum\\w*|reopen\\w*|restor\\w*)\\s+(?:all\\s+)?(?:\\w+\\s+)?withdrawals?(?:${GAP(30)}\\b(?:pause|halt|suspension|freeze|outage))?`,
    ],
    weight: 0.3,
    method: 'fundamental',
    label: 'withdrawals resumed',
  }),
  rule({
    id: 'fundamental.insolvency',
    patterns: ['bankrupt\\w*', 'insolven\\w*', 'chapter 11'],
    weight: -0.7,
    method: 'fundamental',
    label: 'insolvency',
  }),
  rule({
    id: 'fundamental.outage',
    patterns: [
      '(?:network\\s+|mainnet\\s+)?outages?',
      'halts? block production',
      '(?:chain|network|blockchain) halt(?:s|ed)?',
    ],
    weight: -0.45,
    method: 'fundamental',
    label: 'network outage',
  }),
  rule({
    id: 'fundamental.depeg',
    patterns: ['de-?peg(?:s|ged|ging)?', 'los(?:es|t|ing) (?:its|the) peg'],
    weight: -0.6,
    method: 'fundamental',
    label: 'stablecoin depeg',
  }),
  rule({
    id: 'fundamental.partnership',
    patterns: [
      'partner(?:s|ed|ing)? with',
      'partnerships?',
      'collaborat\\w* with',
      'integrat(?:es|ed|ing|ion) (?:with|into)',
    ],
    // Weak on purpose: partnerships are announced daily and were most of the posts on neutral news.
    weight: 0.15,
    method: 'fundamental',
    label: 'new partnership',
  }),
  rule({
    id: 'fundamental.upgrade',
    patterns: [`${RELEASE}${GAP(25)}\\b${SHIPPED}`, `${SHIPPED}${GAP(25)}\\b${RELEASE}`],
    weight: 0.35,
    method: 'fundamental',
    label: 'mainnet/upgrade launch',
    negated: { factor: -0.5, label: 'upgrade delayed' },
    lacking: { factor: -0.5, label: 'upgrade delayed' },
  }),
  rule({
    id: 'fundamental.treasury-buying',
    patterns: [
      `(?:adds?|added|buys?|bought|purchas\\w*|acquir\\w*)${GAP(40)}\\bto\\s+(?:its\\s+|their\\s+)?(?:balance sheet|treasury|reserves?)`,
      '(?:strategic|national|sovereign)\\s+(?:bitcoin\\s+|crypto\\s+)?reserve',
      'corporate treasury',
    ],
    weight: 0.4,
    method: 'fundamental',
    label: 'treasury buying',
    negated: { factor: -0.5, label: 'no treasury buying' },
  }),
];
