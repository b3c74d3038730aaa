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
    // Holding is patience, not a view: said through losses as often as gains ("down 60%, still holding").
    weakAlone: 'holding is said through losses as often as through gains',
  }),
  rule({
    id: 'social.own-buying',
    patterns: [
      "(?:i'm|i am|im|i've been|ive been|i keep|i'll keep|i will keep|we're|we are) (?:buying|stacking|accumulating|averaging in|dca(?:ing)?)",
      "(?:i'm|i am|im|i'll|i will|gonna|going to) buy (?:more|some more|again)",
      'buying more',
      'averaging (?:in|down)',
      'bottom is in',
    ],
    weight: 0.3,
    method: 'sentiment',
    label: 'the author buying',
    stance: true,
    // "My uncle is buying more" is someone else's trade; irony and quotes are left to the author rules.
    authorOnly: true,
  }),
  rule({
    id: 'social.buy-call',
    patterns: [
      '(?:good |great |best |perfect |right )?times? to (?:buy|accumulate|load up|stack|add)',
      'buying opportunit(?:y|ies)',
      '(?:an? )?opportunity to (?:buy|accumulate|load up|add)',
    ],
    weight: 0.3,
    method: 'sentiment',
    label: 'a call to buy',
    stance: true,
  }),
];
