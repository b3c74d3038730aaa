import { anyOf, EXCHANGES, GAP, rule, type LexiconRule } from './lexicon-rule.js';

// Coins move to an exchange to be sold and leave it to be held: the direction of the flow is the
// whole signal, which is why generic sentiment lists (which see "whale" or "moves" only) misread it.
const MOVE = anyOf(
  'mov(?:e|es|ed|ing)',
  'transferr?(?:ed|ing|s)?',
  'sen[dt]s?',
  'sending',
  'deposit(?:s|ed|ing)?',
  'shift(?:s|ed|ing)?',
  'flood(?:s|ed|ing)?',
  'pour(?:s|ed|ing)?',
);
const LEAVE = anyOf(
  'withdr[ae]w(?:s|n|ing|als?)?',
  'pull(?:s|ed|ing)?',
  'mov(?:e|es|ed|ing)',
  'transferr?(?:ed|ing|s)?',
  'outflows?',
);
const UP = anyOf(
  'ris(?:e|es|ing)',
  'rose',
  'jump(?:s|ed|ing)?',
  'surg(?:e|es|ed|ing)',
  'soar(?:s|ed|ing)?',
  'climb(?:s|ed|ing)?',
  'gr[eo]w(?:s|ing|n)?',
  'increas(?:e|es|ed|ing)',
  'doubl(?:e|es|ed|ing)',
  'spik(?:e|es|ed|ing)',
  'hits? (?:a )?record',
  'record high',
  'up',
);
const DOWN = anyOf(
  'fall(?:s|ing)?',
  'fell',
  'drop(?:s|ped|ping)?',
  'plung(?:e|es|ed|ing)',
  'declin(?:e|es|ed|ing)',
  'shrink(?:s|ing)?',
  'shrank',
  'slump(?:s|ed|ing)?',
  'sink(?:s|ing)?',
  'sank',
  'down',
  'decreas(?:e|es|ed|ing)',
  'halv(?:e|es|ed|ing)',
);
const FLOW_METRIC = anyOf(
  'active addresses',
  'daily transactions',
  'network activity',
  'on-?chain activity',
  'new addresses',
);
const HOLDERS_BUY = anyOf('whales?', 'large holders?', 'smart money', 'long-term holders?', 'sharks?');
const HOLDERS_SELL = anyOf(
  'whales?',
  'large holders?',
  'long-term holders?',
  'miners?',
  'early investors?',
  'insiders?',
);

export const onchainRules = (): readonly LexiconRule[] => [
  rule({
    id: 'onchain.to-exchange',
    patterns: [`${MOVE}${GAP(50)}\\b(?:to|into|onto)\\s+(?:the\\s+|an?\\s+)?${EXCHANGES}`],
    weight: -0.5,
    method: 'onchain',
    label: 'coins moving to exchanges',
    negated: { factor: -0.3, label: 'no coins moving to exchanges' },
  }),
  rule({
    id: 'onchain.exchange-inflows',
    patterns: [
      `(?:exchange|cex)\\s+(?:net\\s+)?(?:inflows?|deposits?)`,
      `inflows?\\s+(?:to|into|onto)\\s+${EXCHANGES}`,
      `(?:exchange|cex)\\s+(?:reserves?|balances?)${GAP(20)}\\b${UP}`,
    ],
    weight: -0.45,
    method: 'onchain',
    label: 'exchange inflows rising',
  }),
  rule({
    id: 'onchain.from-exchange',
    patterns: [
      `(?:exchange|cex)\\s+(?:net\\s+)?(?:outflows?|withdrawals?)`,
      // "withdraws from exchange's audit" is not coins leaving it.
      `${LEAVE}${GAP(50)}\\bfrom\\s+(?:the\\s+|an?\\s+)?${EXCHANGES}(?!['\u2019]s)`,
      `(?:exchange|cex)\\s+(?:reserves?|balances?)${GAP(20)}\\b${DOWN}(?:${GAP(25)}\\blows?)?`,
    ],
    weight: 0.45,
    method: 'onchain',
    label: 'coins leaving exchanges',
  }),
  rule({
    id: 'onchain.whale-accumulation',
    patterns: [
      `${HOLDERS_BUY}${GAP(30)}\\b${anyOf('accumulat\\w*', 'buy(?:s|ing)?', 'bought', 'scoop\\w*', 'add(?:s|ed|ing)?', 'load(?:s|ed|ing)? up')}`,
      'accumulation',
    ],
    weight: 0.4,
    method: 'onchain',
    label: 'whales accumulating',
    negated: { factor: -0.3, label: 'whales not buying' },
  }),
  rule({
    id: 'onchain.whale-selling',
    patterns: [
      `${HOLDERS_SELL}${GAP(30)}\\b(?<!\\bstop(?:s|ped|ping)?\\s)${anyOf('sell(?:s|ing)?', 'sold', 'dump(?:s|ed|ing)?', 'offload\\w*', 'distribut\\w*', 'cash(?:es|ed|ing)? out')}`,
      // "distributing into the rally" is one act of selling, not a sale and a rally.
      `${HOLDERS_SELL}${GAP(30)}\\b${anyOf('sell(?:s|ing)?', 'sold', 'dump(?:s|ed|ing)?', 'offload\\w*', 'distribut\\w*')}${GAP(25)}\\binto (?:the |this |a )?(?:rally|strength|rip|bounce|pump)`,
      'distribution phase',
    ],
    weight: -0.45,
    method: 'onchain',
    label: 'whales selling',
    negated: { factor: -0.3, label: 'whales not selling' },
  }),
  rule({
    id: 'onchain.tvl-up',
    patterns: [`(?:tvl|total value locked)${GAP(25)}\\b${UP}`, `record${GAP(10)}\\b(?:tvl|total value locked)`],
    weight: 0.35,
    method: 'onchain',
    label: 'TVL rising',
  }),
  rule({
    id: 'onchain.tvl-down',
    patterns: [`(?:tvl|total value locked)${GAP(25)}\\b${DOWN}`],
    weight: -0.35,
    method: 'onchain',
    label: 'TVL falling',
  }),
  rule({
    id: 'onchain.activity-up',
    patterns: [`${FLOW_METRIC}${GAP(25)}\\b${UP}`, `record${GAP(10)}\\b${FLOW_METRIC}`],
    weight: 0.25,
    method: 'onchain',
    label: 'network activity rising',
  }),
  rule({
    id: 'onchain.activity-down',
    patterns: [`${FLOW_METRIC}${GAP(25)}\\b${DOWN}`],
    weight: -0.25,
    method: 'onchain',
    label: 'network activity falling',
  }),
  rule({
    id: 'onchain.stablecoin-mint',
    patterns: [
      `(?:usdt|usdc|tether|circle|stablecoins?)${GAP(30)}\\bmint(?:s|ed|ing)?`,
      `stablecoin (?:supply|market cap)${GAP(20)}\\b(?:climb|ris|rose|grow|record|jump|surg|expand)\\w*`,
    ],
    weight: 0.3,
    method: 'onchain',
    label: 'stablecoin minting adds buying power',
  }),
];
