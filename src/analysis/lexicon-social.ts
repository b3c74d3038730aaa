import { rule, type LexiconRule } from './lexicon-rule.js';

// How people post about their own positions: holding through a dip is a stance as much as buying is.
// The author's own voice is read over words about other people's positions (frames.ts, author-stance.ts).
export const socialRules = (): readonly LexiconRule[] => [
  rule({
    id: 'social.holding',
    patterns: [
      'hold(?:ing)? (?:your|my|our) \\$?\\w+',
      "(?:do not|don't|never|not) sell(?:ing)?(?: (?:a single|my|your|any)(?: \\$?\\w+)?)?",
      'diamond hands',
      'hodl(?:ing)?',
    ],
    weight: 0.3,
    method: 'sentiment',
    label: 'holders not selling',
    stance: true,
    // "He will not sell his ETH" is someone else's plan, not a holder's stance.
    authorOnly: true,
    ownsNegation: true,
  }),
];
