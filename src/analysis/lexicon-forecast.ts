import { AFTER_A_METRIC } from './lexicon-market.js';
import { anyOf, rule, type LexiconRule } from './lexicon-rule.js';

// Forecasts: a view of the move to come ("plenty of room to run", "poised to drop", "headed for a
// correction", "can run big"). A forecast is the text's point, so a move that already happened beside it
// ("down 60% from the top, room to run") is background and counts nothing (past-moves.ts). Each phrase
// names its direction in a move word; the lead-in says it has not happened yet.

// A verb with an object is another act ("set to run the company", "ready to drop the suit").
const NO_OBJECT =
  '(?!\\s+(?:the|a|an|its|their|his|her|it|them|this|that|you|us|me|people\\w*|everyone|out|off|into|for|on)\\b)';
const UP_MOVES = anyOf(
  'run',
  'rip',
  'fly',
  'explode',
  'pump',
  'moon',
  'rally',
  'rebound',
  'bounce',
  'recover',
  'rise',
  'climb',
  'soar',
  'surge',
  '(?:go|move|head|push|run) higher',
  'go up',
  'break out',
);
const MORE_UP = anyOf(UP_MOVES, 'grow');
const DOWN_MOVES = anyOf(
  'drop',
  'fall',
  'crash',
  'dump',
  'decline(?!\\s+to\\b)',
  'sink',
  'slide',
  'tank',
  'plunge',
  'tumble',
  'correct',
  'retrace',
  '(?:go|move|head|push) lower',
  'go down',
  'break down',
  'collapse',
  'bleed',
  'roll over',
);
const UP_AHEAD = anyOf(
  'rally',
  'rebound',
  'bounce',
  'recovery',
  'breakout',
  'run',
  'new highs',
  'gains',
  'leg up',
  'squeeze',
);
const DOWN_AHEAD = anyOf(
  'correction',
  'pullback',
  'drop',
  'fall',
  'crash',
  'sell-?off',
  'decline',
  'breakdown',
  'dump',
  'losses',
  'leg down',
  'retrace(?:ment)?',
  'slide',
  'plunge',
);

// "Room to run" (not "little room to run", a limit). "Set to rise", "poised to drop", "ready to bounce".
// "Room to grow" too, which a company says of its business as well: only after "room".
const ROOM = '(?<!\\b(?:little|limited|less|not much) )(?:room|space|scope)(?: left)? to';
const LEAD_TO = '(?:ready|set|poised|primed|about|getting ready|looks? (?:ready|set|poised|primed)|on track) to';
// "Going to" is how a comment says anything ("it's going to crash people's savings"): only with the slang
// of a coming pump.
const GOING_UP = 'going to (?:rip|run|fly|explode|pump|moon)';
// "Headed for a correction", "primed for a run".
const LEAD_FOR =
  '(?:headed|heading|due|poised|set|primed|on track|ripe|ready|looks? (?:ready|set|poised|primed)) for ' +
  '(?:a |an |another |more |new |further |big |sharp |deeper |strong |fresh )?';
// "Can run big", "can still fall a lot from here": "can" alone is an ability ("you can run a node").
const CAN_UP = `can (?:still )?(?:run|rally|rip|fly|climb|rise|go) (?:big|hard|higher|much higher|a lot(?: higher| more)?|further|from here)`;
const CAN_DOWN = `can (?:still )?(?:drop|fall|go|sink|dump|crash|bleed) (?:a lot(?: lower| more| further)?|lower|much lower|further|from here|hard)`;

export const forecastRules = (): readonly LexiconRule[] => [
  rule({
    id: 'market.forecast-up',
    patterns: [
      `${ROOM} ${MORE_UP}${NO_OBJECT}`,
      `${LEAD_TO} ${UP_MOVES}${NO_OBJECT}`,
      `${LEAD_FOR}${UP_AHEAD}`,
      CAN_UP,
      GOING_UP,
    ],
    weight: 0.35,
    method: 'sentiment',
    label: 'a rise ahead',
    notAfter: AFTER_A_METRIC,
    stance: true,
  }),
  rule({
    id: 'market.forecast-down',
    patterns: [
      `${ROOM} ${DOWN_MOVES}${NO_OBJECT}`,
      `${LEAD_TO} ${DOWN_MOVES}${NO_OBJECT}`,
      `${LEAD_FOR}${DOWN_AHEAD}`,
      CAN_DOWN,
    ],
    weight: -0.35,
    method: 'sentiment',
    label: 'a fall ahead',
    notAfter: AFTER_A_METRIC,
    stance: true,
  }),
];

/** The rules above: a phrase of theirs makes the moves beside it background. */
export const FORECASTS: ReadonlySet<string> = new Set(['market.forecast-up', 'market.forecast-down']);
