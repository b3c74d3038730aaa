import { GAP, rule, type LexiconRule } from './lexicon-rule.js';

// Reversals: a move that gives back what came before ("pares gains", "rally fizzles", "slips from a
// record") or recovers what was lost ("pares losses", "bounces off the lows"). The news is the reversal,
// not the rally or the sell-off it names, so these phrases are longer than the move words inside them
// and win the overlap. They are price moves, one cue with the move words.

const GAINS_FADE = [
  `(?:gave|gives?|giving) (?:up|back)${GAP(20)}\\b(?:gains?|rally|advance|rise)`,
  'pare[sd]? (?:its |their |early |some |most |all )?gains',
  `(?:rally|rebound|bounce|gains?|recovery|advance)${GAP(10)}\\b(?:stall|stumble|fade|fizzle|falter|reverse|stutter|waver|evaporate)\\w*`,
  `(?:retreat|slip|dip|fall|fell|drop|pull(?:s|ed)? back|back(?:s|ed)? off|knock\\w*(?: \\w+)?)\\w*${GAP(12)}\\b(?:from|off) (?:its |their |the |a |an |fresh |recent |record |session )?(?:record|highs?|peak|all-time highs?|[\\w-]+-(?:day|week|month|year) highs?)`,
  '(?:rally|uptrend) reversal',
];
const LOSSES_FADE = [
  'pare[sd]? (?:its |their |early |some |most |all )?losses',
  `(?:eras(?:es|e|ed|ing)|recoup\\w*|claw(?:s|ed)? back|wipe[sd]? out)${GAP(12)}\\b(?:losses|sell-?off|declines?|the drop|the dip|slump)`,
  `(?:rebound|bounce|climb|rise|rally|recover)\\w*${GAP(10)}\\b(?:from|off) (?:its |the |a |recent |fresh |multi-\\w+ |[\\w-]+-(?:day|week|month|year) )?lows?`,
];

export const reversalRules = (): readonly LexiconRule[] => [
  rule({
    id: 'market.gains-fade',
    cue: 'price move',
    patterns: GAINS_FADE,
    weight: -0.4,
    method: 'technical',
    label: 'gains fading',
    ownsNegation: true,
  }),
  rule({
    id: 'market.losses-fade',
    cue: 'price move',
    patterns: LOSSES_FADE,
    weight: 0.4,
    method: 'technical',
    label: 'losses recovered',
    ownsNegation: true,
  }),
];
