import { GAP, rule, type LexiconRule } from './lexicon-rule.js';

// Sentiment rules read the mood of the text, not a contrarian trade on it: "extreme fear" reads
// bearish here. A contrarian reading is a strategy, and strategies belong to stronger analyzers.
export const sentimentRules = (): readonly LexiconRule[] => [
  rule({
    id: 'sentiment.bullish-word',
    patterns: [
      'bullish(?:ness)?',
      'optimis(?:m|tic)',
      'upbeat',
      'buy signal',
      'bulls? (?:in control|take control|charge|regain(?:s|ed)? control|are back)',
    ],
    weight: 0.3,
    method: 'sentiment',
    label: 'bullish tone',
    negated: { factor: -0.5, label: 'not bullish' },
    stance: true,
  }),
  rule({
    id: 'sentiment.bearish-word',
    patterns: [
      'bearish(?:ness)?',
      'pessimis(?:m|tic)',
      'gloomy',
      'sell signal',
      'bears? (?:in control|take control|regain(?:s|ed)? control)',
      'disappoint(?:s|ed|ing|ment)',
      'bubble(?! tea)',
    ],
    weight: -0.3,
    method: 'sentiment',
    label: 'bearish tone',
    negated: { factor: -0.5, label: 'not bearish' },
    stance: true,
  }),
  rule({
    id: 'sentiment.extreme-fear',
    patterns: [
      'extreme fear',
      `fear${GAP(10)}\\b(?:grips|spreads|mounts|rises|takes hold)`,
      'panic(?:\\s+selling)?',
      'capitulat\\w*',
    ],
    weight: -0.35,
    method: 'sentiment',
    label: 'extreme fear',
    negated: { factor: -0.3, label: 'fear easing' },
  }),
  rule({
    id: 'sentiment.extreme-greed',
    patterns: ['extreme greed', 'euphori[ac]', 'fomo'],
    weight: 0.3,
    method: 'sentiment',
    label: 'extreme greed',
    negated: { factor: -0.3, label: 'greed cooling' },
  }),
  rule({
    id: 'sentiment.social-hype',
    patterns: [
      `(?:social (?:volume|mentions|dominance|buzz)|mentions|search interest|google searches)${GAP(20)}\\b(?:spik\\w*|surg\\w*|soar\\w*|jump\\w*|explod\\w*|record)`,
      'trending(?!\\s+(?:lower|higher|down|up|sideways)\\b)(?:\\s+(?:on|across)\\s+(?:x|twitter|social media|crypto twitter))?',
      'goes viral',
      'went viral',
      'viral(?!\\s+(?:outbreak|infection|load|disease|epidemic|pandemic|strain|illness)\\b)',
    ],
    weight: 0.3,
    method: 'sentiment',
    label: 'social hype',
    negated: { factor: -0.3, label: 'hype fading' },
  }),
  rule({
    id: 'sentiment.hype',
    patterns: ['hype'],
    weight: 0.3,
    method: 'sentiment',
    label: 'social hype',
    cue: 'sentiment.social-hype',
    negated: { factor: -0.3, label: 'hype fading' },
    // In a comment, "hype" is mostly a critic's word for the market ("just hype"), not a report of it.
    reportOnly: true,
  }),
  rule({
    id: 'sentiment.fud',
    patterns: ['fud', 'scam (?:allegations?|accusations?|concerns?)', 'rumou?rs? of (?:insolvency|trouble)'],
    weight: -0.3,
    method: 'sentiment',
    label: 'FUD spreading',
    // "Ignore the FUD": in a comment, FUD is what the author waves away.
    reportOnly: true,
    weakAlone: 'a word of the debate, waved away as often as reported',
  }),
];
