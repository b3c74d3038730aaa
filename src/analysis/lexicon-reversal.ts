import { GAP, rule, type LexiconRule } from './lexicon-rule.js';

// Reversals: a move that gives back what came before ("pares gains", "rally fizzles", "slips from a
// record", "backs off after a four-day rally") or recovers what was lost ("pares losses", "bounces off
// the lows", "steadies after a two-day drop"). The news is the reversal, not the rally or the sell-off it
// names, so these phrases are longer than the move words inside them and win the overlap. They are price
// moves, one cue with the move words.

// What a reversal gives back, and what it recovers from, named after "after" or "following".
const A_RISE = '(?:rally|rall(?:ies|ied)|run-?up|run|surge|gains|advance|climb|jump|spike|winning streak)';
const A_FALL = '(?:sell-?off|slide|drop|plunge|crash|rout|slump|losses|decline|dip|tumble|fall|losing streak)';
// Between "after" and the move, only the move's own words: "after a five-day rally", "following its 20%
// surge"; not "after weak jobs data sparks rally", where the rally is the news's next clause.
const MOVE_WORDS =
  '\\s+(?:(?:a|an|the|its|their|this|that|last|recent|early|brief|strong|big|sharp|huge|weekend|overnight|weekly|[\\w-]+-(?:day|week|month|year)|\\$?[\\d,.]+[kmb%]?)\\s+){0,3}';
// A pause or a step back right after a rise: "backs off after four-day rally", "XRP stalls after a surge".
const STEPS_BACK =
  '(?:back(?:s|ed|ing)? off|pull(?:s|ed|ing)? back|retreat(?:s|ed|ing)?|cool(?:s|ed|ing)?(?: off)?|' +
  'eas(?:e|es|ed|ing)|slip(?:s|ped)?|dip(?:s|ped)?|stall(?:s|ed|ing)?|paus(?:e|es|ed|ing)|fall(?:s|ing)? back|' +
  'fell back|edg(?:e|es|ed|ing) (?:back|lower)|take(?:s)? a breather)';
// A steadying or a step up right after a fall: "steadies after two-day drop", "rebounds following the rout".
const STEPS_UP =
  '(?:steadi(?:es|ed)|steady|stabili[sz](?:e|es|ed|ing)|recover(?:s|ed|ing)?|bounc(?:e|es|ed|ing)|' +
  'rebound(?:s|ed|ing)?|edg(?:e|es|ed|ing) (?:back|higher|up)|tick(?:s|ed)? up|firm(?:s|ed)? up|climb(?:s|ed)? back)';
// A rally's end: "rally halted at resistance", "bounce breaks", "rally capped at $70K".
const RALLY_ENDS =
  '(?:halt(?:s|ed)?|capped|snap(?:s|ped)|stop(?:s|ped)|cool(?:s|ed)|peter(?:s|ed)? out|' +
  '(?:runs?|ran|running) (?:out of (?:steam|gas)|into (?:resistance|a wall))|hits? a wall|' +
  'br(?:eaks?|oke)(?=\\s*(?:$|[,.;:!?]|(?:down|despite|as|after|amid)\\b)))';

const GAINS_FADE = [
  `(?:gave|gives?|giving) (?:up|back)${GAP(30)}\\b(?:gains?|rally|advance|rise)`,
  '(?:pare[sd]?|trim(?:s|med)?) (?:its |their |early |some |most |all )?gains',
  `(?:rally|rebound|bounce|gains?|recovery|advance)${GAP(10)}\\b(?:stall|stumble|fade|fizzle|falter|reverse|stutter|waver|evaporate)\\w*`,
  `(?:retreat|slip|dip|fall|fell|drop|pull(?:s|ed)? back|back(?:s|ed)? off|knock\\w*(?: \\w+)?)\\w*${GAP(12)}\\b(?:from|off) (?:its |their |the |a |an |fresh |recent |record |session )?(?:record|highs?|peak|all-time highs?|[\\w-]+-(?:day|week|month|year) highs?)`,
  '(?:rally|uptrend) reversal',
  // The object right after the verb: in "erases weekly losses in rally" the rally is the recovery.
  '(?:eras(?:es|e|ed|ing)|wip(?:es|ed|ing) out|surrender(?:s|ed|ing)?)\\s+(?:(?:its|their|all|the|early|recent|weekly|monthly|yearly|session|post-\\w+|[\\w-]+-(?:day|week|month|year)|\\$?[\\d,.]+[kmb%]?)\\s+){0,3}(?:gains|rally|advance)',
  `(?:rally|rebound|bounce|recovery|advance|uptrend|run-?up|gains|winning streak)${GAP(10)}\\b${RALLY_ENDS}`,
  `${STEPS_BACK}${GAP(8)}\\bfrom (?:its |their |the |early |earlier |modest |recent |strong |big |session |intraday )?(?:gains|advance|rally)`,
  `${STEPS_BACK}${GAP(6)}\\b(?:after|following)${MOVE_WORDS}${A_RISE}`,
  `(?:halt|snap|end|break|stop)(?:s|ed|ped|ing)?${GAP(15)}\\bwinning streak`,
  // "Stocks stumble toward best week since June": the day's step back, in a week that rose.
  `(?:stumbl|stutter|limp|slip|dip|fall|fell|drop|slid|retreat|lower)\\w*${GAP(12)}\\b(?:toward|towards|at (?:the )?end of|to end|to close out) (?:a |an |the |its |their )?best (?:day|week|month|quarter|year)`,
  // "This bull market may have no teeth left", "the rally won't last": a rise said to be spent.
  `(?:bull market|bull run|rally|uptrend|run-?up)${GAP(20)}\\b(?:no (?:teeth|legs|steam|gas|fuel) left|(?:runs?|ran|running) out of (?:steam|gas|fuel|road)|on (?:its )?last legs|running on fumes|(?:won'?t|will not|can'?t|cannot|(?:is not|isn'?t) going to) last)`,
];
const LOSSES_FADE = [
  '(?:pare[sd]?|trim(?:s|med)?) (?:its |their |early |some |most |all )?losses',
  `(?:eras(?:es|e|ed|ing)|recoup\\w*|claw(?:s|ed)? back|wipe[sd]? out)${GAP(12)}\\b(?:losses|sell-?off|declines?|the drop|the dip|slump)`,
  `(?:rebound|bounce|climb|rise|rally|recover)\\w*${GAP(10)}\\b(?:from|off) (?:its |the |a |recent |fresh |multi-\\w+ |[\\w-]+-(?:day|week|month|year) )?lows?`,
  `(?:halt|snap|end|break|stop)(?:s|ed|ped|ing)?${GAP(15)}\\blosing streak`,
  `${STEPS_UP}${GAP(6)}\\b(?:after|following)${MOVE_WORDS}${A_FALL}`,
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
