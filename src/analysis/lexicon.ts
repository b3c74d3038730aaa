import { corporateRules } from './lexicon-corporate.js';
import { exchangeRules } from './lexicon-exchange.js';
import { forecastRules } from './lexicon-forecast.js';
import { fraudRules } from './lexicon-fraud.js';
import { fundamentalRules } from './lexicon-fundamental.js';
import { macroRules } from './lexicon-macro.js';
import { marketRules } from './lexicon-market.js';
import { onchainRules } from './lexicon-onchain.js';
import { regulationRules } from './lexicon-regulation.js';
import { reversalRules } from './lexicon-reversal.js';
import type { LexiconRule } from './lexicon-rule.js';
import { sentimentRules } from './lexicon-sentiment.js';
import { socialRules } from './lexicon-social.js';
import { technicalRules } from './lexicon-technical.js';

export type { LexiconRule } from './lexicon-rule.js';

let table: readonly LexiconRule[] | undefined;

/**
 * The built-in analyzer's phrase table. Order matters only to break ties between two matches of the
 * same span and length: the earlier rule wins. Built on first use, not when the module loads: every
 * `agent poll` loads this module, and one that finds nothing new must not pay for compiling some 600
 * patterns it never reads.
 */
export function lexicon(): readonly LexiconRule[] {
  table ??= [
    ...fundamentalRules(),
    ...onchainRules(),
    ...macroRules(),
    ...technicalRules(),
    ...sentimentRules(),
    ...socialRules(),
    ...regulationRules(),
    ...corporateRules(),
    ...exchangeRules(),
    ...fraudRules(),
    ...marketRules(),
    ...reversalRules(),
    ...forecastRules(),
  ];
  return table;
}
