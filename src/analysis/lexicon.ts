import { FUNDAMENTAL_RULES } from './lexicon-fundamental.js';
import { MACRO_RULES } from './lexicon-macro.js';
import { ONCHAIN_RULES } from './lexicon-onchain.js';
import type { LexiconRule } from './lexicon-rule.js';
import { SENTIMENT_RULES } from './lexicon-sentiment.js';
import { TECHNICAL_RULES } from './lexicon-technical.js';

export type { LexiconRule } from './lexicon-rule.js';

/**
 * The built-in analyzer's phrase table. Order matters only to break ties between two matches of the
 * same span and length: the earlier rule wins.
 */
export const LEXICON: readonly LexiconRule[] = [
  ...FUNDAMENTAL_RULES,
  ...ONCHAIN_RULES,
  ...MACRO_RULES,
  ...TECHNICAL_RULES,
  ...SENTIMENT_RULES,
];
