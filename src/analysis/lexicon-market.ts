import { anyOf, EXCHANGES, GAP, rule, type LexiconRule } from './lexicon-rule.js';

// Market talk: how news and traders describe a move, a level or a trade. Most headlines about a coin
// are this ("SOL slides 12%", "buyers step in at $58K"), so these rules carry much of the coverage;
// each is a plain move word, weighed like one, so that one alone posts only at moderate and above.

// A move word after a metric ("fees fall", "dominance slips", "yields spike") is about the metric,
// not the price; the metric's own rules read it where it has a direction.
export const AFTER_A_METRIC =
  '\\b(?:fees?|volumes?|dominance|inflation|yields?|unemployment|rates?|difficulty|costs?|hash ?price|funding|' +
  'volatility|spreads?|premiums?|mentions|searches|supply|reserves|balances?|outflows?|inflows?|losses|odds|' +
  'inventor(?:y|ies)|stockpiles?|output|production|deficits?|debt|claims|complaints|cases|toll|counts?|' +
  'payrolls|spending|sales|revenue|profits?|earnings)\\s(?:\\w+\\s)?$';
const SIZE =
  '(?:by\\s+|over\\s+|more than\\s+|nearly\\s+|almost\\s+|about\\s+|some\\s+)?\\$?\\d+(?:[.,]\\d+)?\\s?(?:%|percent|x\\b)';
// An index's move in points: "Dow down 432 points".
const POINTS = '(?:about\\s+|nearly\\s+|more than\\s+|over\\s+|some\\s+)?\\d[\\d,.]*\\s?(?:points|pts)';
// "Gold higher as the dollar slips", "Stocks close mostly lower": a bare comparative that ends its
// phrase (a pause, a cause, a time after it) is a move; one before a noun ("higher prices") is not.
const ENDS_MOVE = (word: string): string =>
  `(?:(?:mostly|slightly|sharply|modestly|broadly|further|still|much)\\s+)?${word}` +
  '(?=\\s*(?:$|[,.;:!?\u2013\u2014-]|https?:|(?:after|as|on|amid|following|despite|ahead|with|in|at|into|since|today|this|for the|from)\\b))';
const PERIOD_WORD = anyOf(
  '\\d+',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'multi',
  'several',
);
const PERIOD = `(?:${PERIOD_WORD}(?:[- ]and[- ]a[- ]half)?[- ](?:day|week|month|year)s?|yearly|annual|monthly|weekly|multi-?year|cycle)`;

// A move counted in a run or a period, or ranked against others of its kind.
const STREAK = `(?:(?:${PERIOD_WORD}|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth)[- ](?:straight|consecutive)|straight|consecutive|daily|weekly|monthly|quarterly)`;
const RECORD_MOVE =
  '(?:biggest|largest|sharpest|steepest|best|worst)(?:\\s+(?:daily|weekly|monthly|one-day|single-day|intraday))?';

// A move word with an object ("drops the lawsuit", "dumped it") is not a move of the price.
const NO_OBJECT =
  '(?!\\s+(?:it|its|their|his|her|plans?|lawsuits?|suits?|cases?|charges|claims|support|ties|the (?:case|lawsuit|charges|suit|probe|plans?|ball|idea)))';

// Lists, not one alternation: each move word is its own pattern, run only on a clause that has it.
const RISE = [
  'climb(?:s|ed|ing)?',
  'ris(?:es|ing)(?!\\s+(?:\\w+\\s+)?(?:of|inflation|costs?|yields?|rates?|fees?|tensions?|fears?|energy|power|debt|unemployment))',
  'rose',
  // The bare verb too, as headlines write it ("Asian shares rise"); a noun ("a rise in fees") has no coin
  // before it, and a move word without its coin does not post alone.
  'rise(?!\\s+(?:of|in|and fall)\\b)',
  'gain(?:s|ed)?(?=\\s+(?:\\$?\\d|more|ground|momentum|traction|steam))',
  // "Stocks gain as…", "MESO gains on the approval": a gain with its cause after it is a move; the noun
  // ("tax on crypto gains", "its gains") is not.
  '(?<!\\b(?:capital|the|its|their|his|her|your|my|our|of|on|in|crypto|paper|early|recent|big|huge|strong|sharp)\\s)' +
    'gain(?:s|ed)?(?=\\s+(?:as|on|after|amid|following|despite|ahead of)\\b)',
  // "futures advance after…"; not a noun ("advances in AI", "an advance notice").
  '(?<!\\b(?:an|the|in|of|its|their)\\s)advanc(?:e|es|ed|ing)(?!\\s+(?:in|of|on|to|notice|payments?|tickets?|orders?|warnings?|the|a|an|its|their)\\b)',
  'extends? (?:its |the )?(?:gains|rally|winning streak)',
  'rebound(?:s|ed|ing)?',
  // "recovers from the sell-off" is one recovery, not a recovery and a sell-off. "Recover their money",
  // "recovered stolen funds", "recover 90% of deposits": what is recovered is not a price.
  `recover(?:s|ed|ing|y)?(?!\\s+(?:\\d+(?:\\.\\d+)?%\\s+of\\s+)?(?:(?:the|their|his|her|my|your|our|its|some|any|all|stolen|lost|user|customer)\\s+)?(?:money|funds|assets|deposits|keys|passwords?|wallets?|accounts?|data|costs))(?:${GAP(30)}\\bfrom (?:the |a |its |all )?(?:sell-?off|crash|dip|slump|drop|plunge|losses|lows?))?`,
  'bounc(?:e|es|ed|ing)(?! off)',
  'rip(?:s|ped|ping)?(?! off)',
  'pump(?:s|ed|ing)?(?![\\s-]+and[\\s-]+dump)(?!\\s+(?:\\$|liquidity|money|cash|funds|billions?|millions?|gas|water|oil)\\b)',
  'tripl(?:es|ed|ing)',
  'doubl(?:es|ed|ing)(?! down)',
  'outperform(?:s|ed|ing)?',
  'edges? (?:higher|up)',
  'inch(?:es|ed|ing)? (?:higher|up)',
  'push(?:es|ed)? higher',
  'moves? higher',
  'trend(?:s|ed|ing)? higher',
  'trades? higher',
  'climbs? back',
  'back above',
  'turns? green',
  'green candles?',
  'in the green',
  'higher high',
  '(?:clos|end|finish)(?:es|ed|s|ing)? (?:the (?:day|week|month) )?(?:higher|up|in the green)',
  '(?:lift|boost)(?:s|ed|ing)? (?:crypto|bitcoin|btc|ether|eth|prices|the market|markets|sentiment|altcoins|the token)',
  'best (?:day|week|month|quarter|year)',
  // "a fourth straight gain", "a weekly rise of 1%", "its biggest gain in six years"; not "a weekly rise in
  // crude supply", which is the supply's.
  `${STREAK}\\s+(?:gains?|rises?|advances?)(?!\\s+in\\b)`,
  `${RECORD_MOVE}\\s+(?:gains?|rises?|advances?|rall(?:y|ies)|jumps?)`,
  'pop(?:s|ped)? (?:to|above|past|over|higher|\\d)',
  'settl(?:es|ed|e|ing) (?:higher|in the green)',
  // Session and tape words news uses for any market: "opens higher", "ticks up", "turns positive".
  'open(?:s|ed)? (?:sharply |slightly |modestly |solidly |firmly )?(?:higher|up)',
  ENDS_MOVE('higher'),
  'tick(?:s|ed)? (?:higher|up)',
  'turn(?:s|ed)? positive',
  `(?:shares|stocks|futures|equities|prices) (?:are |were |trade |trading |point |pointing )?(?:sharply |slightly |modestly )?higher`,
];
const FALL = [
  'slid(?:es|ing)?',
  'slides?',
  'slip(?:s|ped|ping)?',
  `drop(?:s|ped|ping)?${NO_OBJECT}`,
  'fall(?:s|ing)?',
  'fell',
  'sink(?:s|ing)?',
  'sank',
  `sheds?${NO_OBJECT}`,
  `shedding${NO_OBJECT}`,
  'bleed(?:s|ing)?',
  'bled',
  `dump(?:s|ed|ing)?${NO_OBJECT}`,
  'sold off',
  'sells? off',
  'selling off',
  '(?:drift|move|trade|head|edge|push|trend|inch)(?:s|es|ed|ing)? lower',
  'inch(?:es|ed|ing)? down',
  '(?:clos|end|finish)(?:es|ed|s|ing)? (?:the (?:day|week|month) )?(?:lower|down|in the red)',
  'declin(?:e|es|ed|ing)',
  'dipped',
  'dips? (?:below|under|to)',
  'retreat(?:s|ed|ing)?',
  'pull(?:s|ed)? back',
  'slid',
  'tank(?:s|ed|ing)?',
  'los(?:es|t|ing) \\$?\\d[\\d,.]*\\s?(?:[kmbt]n?|million|billion|trillion|%)?',
  // Not "erases its losses", which is a recovery (market.losses-fade).
  'eras(?:es|e|ing)(?!\\s+(?:its |the |a |all |early |some )?(?:\\w+\\s)?(?:losses|sell-?off|decline|drop|dip|slump))',
  'put(?:s|ting)? pressure on',
  'weigh(?:s|ed|ing)? on (?:crypto|bitcoin|btc|ether|eth|prices|the market|markets|sentiment|risk assets|altcoins|the token)',
  '(?:drags?|dragged|pressures?|pressured) (?:down )?(?:crypto|bitcoin|btc|ether|eth|prices|the market|markets|altcoins)',
  'wip(?:es|ed) out',
  'extends? (?:its |the )?(?:losses|slide|decline|drop)',
  'underperform(?:s|ed|ing)?',
  `(?:price|value)s?${GAP(10)}\\bhalv(?:es|ed)`,
  'flush(?:es|ed)?',
  'rolls? over',
  'rolled over',
  'turns? red',
  'red candles?',
  'in the red',
  'leg down',
  'worst (?:day|week|month|quarter|year)',
  // A loss in a period is a firm's result ("posts a quarterly loss"); only a run of them is the price's.
  `${STREAK}\\s+(?:declines?|drops?|falls?)(?!\\s+in\\b)`,
  `(?:straight|consecutive)\\s+loss(?:es)?(?!\\s+in\\b)`,
  `${RECORD_MOVE}\\s+(?:declines?|drops?|falls?|sell-?offs?)`,
  'settl(?:es|ed|e|ing) (?:lower|in the red)',
  'lower low',
  'under ?water',
  'lag(?:s|ged|ging)? behind',
  'open(?:s|ed)? (?:sharply |slightly |modestly |solidly |firmly )?(?:lower|down)',
  ENDS_MOVE('lower'),
  'tick(?:s|ed)? (?:lower|down)',
  'turn(?:s|ed)? negative',
  // A dive with an object or a direction is a look into something ("dives into the data"): masked.
  'div(?:e|es|ed|ing)(?!\\s+(?:into|in|deep)\\b)',
  `(?:shares|stocks|futures|equities|prices) (?:are |were |trade |trading |point |pointing )?(?:sharply |slightly |modestly )?lower`,
];

export const marketRules = (): readonly LexiconRule[] => [
  rule({
    id: 'market.price-up',
    cue: 'price move',
    patterns: [
      ...RISE.map((move) => `${move}(?:\\s+${SIZE})?`),
      `up\\s+${SIZE}`,
      `up\\s+${POINTS}`,
      '(?:up|higher) on the (?:day|week|month)',
      'up (?:today|this week|overnight)',
      'up only',
      '(?<![\\w.+-])\\+[1-9]\\d*(?:\\.\\d+)?\\s?%',
    ],
    weight: 0.35,
    method: 'technical',
    label: 'price rising',
    notAfter: AFTER_A_METRIC,
    negated: { factor: -0.3, label: 'no recovery' },
    lacking: { factor: -0.3, label: 'no recovery' },
  }),
  rule({
    id: 'market.price-down',
    cue: 'price move',
    patterns: [
      ...FALL.map((move) => `${move}(?:\\s+${SIZE})?`),
      `down\\s+${SIZE}`,
      `down\\s+${POINTS}`,
      '(?:down|lower) on the (?:day|week|month)',
      'down (?:today|this week|overnight)',
      '(?<![\\w.+-])[-\u2212\u2013][1-9]\\d*(?:\\.\\d+)?\\s?%',
    ],
    weight: -0.35,
    method: 'technical',
    label: 'price falling',
    notAfter: AFTER_A_METRIC,
    negated: { factor: -0.3, label: 'decline stalls' },
  }),
  rule({
    id: 'market.new-high',
    cue: 'price move',
    patterns: [
      `(?:${PERIOD}|record|fresh|new|all-time|peak|intraday)\\s+highs?`,
      'highest (?:levels?|price|close|weekly close|monthly close|point)?\\s*(?:since|in|ever)',
      'hits? (?:a )?(?:new )?record(?! lows?)(?:\\s+(?:above|high|close))?',
      'set(?:s|ting)? (?:a )?(?:new )?records?(?! highs?)',
      'new records?',
      'at (?:a )?(?:new |fresh )?record(?! lows?)(?:\\s+highs?)?',
      // "To record every trade" is the verb: a level needs an article, an adjective or a high after it.
      'to (?:a |new |fresh |a new |a fresh )record(?! lows?)(?:\\s+highs?)?',
      'to record(?:\\s+highs?|\\s+levels?|\\s+territory|(?=\\s*[.,;:!]|$))',
      '(?:breaks?|broke|tops?|topped|surpass(?:es|ed)?|beats?) (?:the |its )?(?:previous|prior|old|last) (?:high|peak|record)',
    ],
    weight: 0.4,
    method: 'technical',
    label: 'new high',
  }),
  rule({
    id: 'market.new-low',
    cue: 'price move',
    patterns: [
      `(?:${PERIOD}|record|fresh|new|yearly|intraday)\\s+lows?`,
      'lowest (?:levels?|price|close|weekly close|monthly close|point)?\\s*(?:since|in)',
      'hits? (?:a )?(?:new )?record lows?',
    ],
    weight: -0.4,
    method: 'technical',
    label: 'new low',
  }),
  rule({
    id: 'market.accumulation',
    patterns: [
      'accumulat(?:e|es|ed|ing)(?!\\s+(?:losses|debts?|deficits?|fees|interest))',
      'load(?:s|ed|ing)? (?:up|more)',
      'buy(?:ing)? (?:the|this|every) dips?',
      'bought (?:the|this) dip',
      // "Added 40M on this dip", "bought some in the dip": the dip is where the buying happened.
      '(?:add(?:s|ed|ing)?(?! to)|bought|buying)(?: \\S+){0,2} (?:on|in|during) (?:the|this|every) dips?',
      'buyers? (?:step|stepped|stepping|pile|piled|piling|rush|rushed|return|returned|returning|are back) ?(?:in|back)?',
      'bids? (?:step|stepped) in',
      'dip buyers? (?:pile|step|stepped|piled|rush)\\w* in',
      'add(?:s|ed|ing)? to (?:their |my |our )?(?:positions?|bags|holdings)',
      '(?:keep|kept|keeps) buying',
      "(?:i'm|i am|we're|we are|i've been|been) buying",
      'bought more',
      'dips? (?:gets?|get|are|is|being) bought',
      `buyers?${GAP(10)}\\babsorb(?:s|ed|ing)?`,
      `demand${GAP(25)}\\b(?:outpac|outstrip|exceed)\\w*`,
      'bulls? (?:are )?(?:defend\\w*|step(?:ping)? in)',
      'ap(?:e|es|ed|ing) (?:in|into)',
      'buying more',
      // The author's own plans: "adding more SOL", "loading $BTC", "so I can add".
      'adding more',
      "(?:i'm|i am|we're|been|i've been|keep|keeps) adding",
      'load(?:s|ed|ing)? (?:up|more|\\$[a-z]+)',
      '(?:so )?i can (?:add|buy|load)',
      'stack(?:s|ing|ed)? (?:sats|more)',
      'demand (?:is back|returns|returned|outpaces|outstrips|exceeds|surges|soars|jumps|rises|picks up)',
    ],
    weight: 0.4,
    method: 'onchain',
    label: 'buyers accumulating',
    // Buying is a position someone holds: the author's own ("bought the dip", "I'm accumulating") stands
    // alone, the crowd's ("everyone is buying the dip") is someone else's (author-stance.ts, frames.ts).
    stance: true,
    negated: { factor: -0.5, label: 'buyers absent' },
    lacking: { factor: -0.5, label: 'buyers absent' },
  }),
  rule({
    id: 'market.selling-eases',
    patterns: [
      `(?:sell(?:ing)?[\\s-]pressure|selling|supply overhang|sell-off)${GAP(15)}\\b(?:eas(?:es|ed|ing)|fad(?:es|ed|ing)|dr(?:y|ies|ied) up|subsid\\w*|cool(?:s|ed|ing)|abat\\w*|slow(?:s|ed|ing)|exhaust\\w*)`,
      `(?:miners|whales|holders|sellers|funds)${GAP(15)}\\bstop(?:s|ped)? selling`,
      'sellers? (?:exhausted|exhaustion|run(?:ning)? out|dr(?:y|ied) up)',
      'shrug(?:s|ged)? (?:it |this |that )?off',
    ],
    weight: 0.4,
    method: 'technical',
    label: 'selling pressure easing',
    ownsNegation: true,
  }),
  rule({
    id: 'market.demand-fades',
    patterns: [
      `(?:demand|bids?|buying|liquidity|interest|inflows?)${GAP(15)}\\b(?:dr(?:y|ies|ied) up|drying up|thin(?:s|ned|ning)?(?: out)?|vanish\\w*|evaporat\\w*|fad(?:es|ed|ing)|weaken\\w*|wan(?:es|ed|ing)|pulled)`,
      'no buyers',
      'absent (?:any )?(?:bids|buyers|demand)',
      'fail(?:s|ed)? to attract (?:new )?buyers',
      `sellers${GAP(15)}\\b(?:overwhelm\\w*|in control|take control|dominate\\w*)`,
      '(?:running|ran|runs) out of steam',
      'los(?:es|ing|t) (?:steam|momentum)',
      '(?:looks|looking) (?:exhausted|tired|weak|ugly)',
      'chart looks ugly',
      'cold feet',
    ],
    weight: -0.4,
    method: 'technical',
    label: 'demand fading',
    ownsNegation: true,
  }),
  rule({
    id: 'market.supply-shrinks',
    patterns: [
      `(?:supply|float|issuance)${GAP(20)}\\b(?:shrink\\w*|shrank|contract\\w*|declin\\w*|fall(?:s|ing)?|fell|drops?|dropped|turns? deflationary)`,
      `(?:supply|balances?|reserves?|coins?) (?:on|held on|at) ${EXCHANGES}${GAP(25)}\\b(?:lows?|shrink\\w*|fall(?:s|ing)?|fell|drop\\w*|declin\\w*|plung\\w*)`,
      'illiquid supply',
      'deflationary',
      'burns? outpac\\w*',
      'scarcity',
    ],
    weight: 0.35,
    method: 'onchain',
    label: 'supply shrinking',
  }),
  rule({
    id: 'market.no-floor',
    patterns: [
      'no (?:bottom|floor|support) in sight',
      'no (?:floor|bottom) (?:yet|below)',
      'nothing (?:to stop|stopping) the (?:slide|fall|bleeding)',
      "(?:not|n't|failed to|fails to|unable to)(?: yet)? (?:stop(?:ped)?|halt(?:ed)?|slow(?:ed)?|reverse(?:d)?|arrest(?:ed)?) the (?:slide|fall|decline|drop|sell-off|bleeding|selling)",
    ],
    weight: -0.35,
    method: 'technical',
    label: 'no floor in sight',
    ownsNegation: true,
  }),
  rule({
    id: 'market.dead-cat',
    patterns: [
      'dead[- ]cat bounces?',
      'falling knife',
      'bull trap',
      'exit liquidity',
      'sell(?:ing)? (?:into|the) (?:strength|rips?|bounce|news)',
      'sell(?:ing)?(?: (?:my )?\\$?\\w+)? into (?:every |the |this |each )?(?:green candles?|pumps?|rips?|bounces?|strength)',
      'sold the news',
    ],
    weight: -0.4,
    method: 'sentiment',
    label: 'bounce seen as a trap',
  }),
  rule({
    id: 'market.short-trapped',
    patterns: [
      'shorts? (?:are |get |got |getting )?(?:trapped|squeezed|burned|rekt)',
      'squeeze (?:incoming|coming|is coming|loading)',
      'bears? (?:trapped|squeezed|rekt)',
    ],
    weight: 0.4,
    method: 'technical',
    label: 'shorts squeezed',
  }),
  rule({
    id: 'market.trader-long',
    patterns: [
      "(?:i'm|i am|we're|going|went|got|opened a|flip(?:s|ped)?|turn(?:s|ed)?) long",
      'long (?:from|here)',
      'longing',
      'bullish (?:divergence|engulfing|reversal)',
      'to the moon',
      'mooning',
      'send(?:s|ing)? it',
      'wagmi',
      'lfg',
      'bull (?:run|market|season|cycle)',
      'alt ?season',
      'bottom(?:ed|ing)(?: out)?',
      `upgrad(?:es|ed|ing)${GAP(25)}\\bto (?:buy|outperform|overweight)`,
      `rais(?:es|ed|ing)${GAP(30)}\\b(?:price )?(?:target|forecast|outlook)`,
      `expect(?:s|ed|ing)?${GAP(15)}\\b(?:a |another )?(?:rally|rebound|breakout|rise|run to|move higher)`,
      'firing on all cylinders',
      'belongs? in (?:every|any|your) portfolio',
    ],
    weight: 0.35,
    method: 'sentiment',
    label: 'traders turning long',
    stance: true,
  }),
  rule({
    id: 'market.trader-short',
    patterns: [
      "(?:i'm|i am|we're|going|went|opened a|flip(?:s|ped)?|turn(?:s|ed)?) short",
      'short(?:ing)? (?:from )?here',
      'shorting',
      'short(?:s|ed)? \\$?(?:btc|eth|sol|xrp|doge|ada|bnb|link|avax|dot|ltc|ton|pepe|bitcoin|ether|ethereum|solana)',
      '(?:sold|selling|sell|dumped) (?:all|everything|my|the rest)',
      'out of (?:crypto|the market|my position)',
      'taking profits?',
      'took profits?',
      '(?:market|it) is cooked',
      'cooked',
      'ngmi',
      'bear (?:market|season|cycle)',
      'top is in',
      'bearish (?:divergence|engulfing|reversal)',
      'downgrad(?:es|ed|ing)',
      `(?:cut(?:s|ting)?|slash(?:es|ed)?|lower(?:s|ed)?)${GAP(20)}\\b(?:its |their |his |her )?(?:price )?(?:target|forecast|outlook)`,
      `expect(?:s|ed|ing)?${GAP(15)}\\b(?:a |another )?(?:drop|decline|fall|correction|pullback|crash|sell-off|flush)`,
      'piling into shorts',
      // Positioning: "hedge funds increase short bets on ether futures to a record".
      `(?:increase|raise|boost|add|pile)\\w*${GAP(20)}\\bshort (?:bets|positions|exposure)(?:${GAP(30)}\\brecord(?: highs?)?)?`,
      `short (?:bets|positions|interest)${GAP(30)}\\b(?:record(?: highs?)?|(?:jump|surge|soar|climb)\\w*)`,
      // Imperatives and the author's own exits: "fade it", "I'm out", "cutting my bag".
      'fade (?:it|this|that|the (?:pump|rally|bounce|move|rip))',
      "(?:i'm|i am|we're) out",
      'get out (?:of|now|while)',
      'cut(?:ting)? my (?:bags?|position|losses)',
      'closed? my (?:\\$?\\w+ )?long',
      'pile into shorts',
    ],
    weight: -0.35,
    method: 'sentiment',
    label: 'traders turning short',
    stance: true,
  }),
  rule({
    id: 'market.mood-sours',
    patterns: [
      `(?:sentiment|mood|risk appetite|confidence)${GAP(12)}\\b(?:sours?|soured|souring|darkens?|worsens?|vanish\\w*|evaporat\\w*|turns? (?:sour|negative|bearish)|collapses?|plunges?)`,
      '(?:lose|lost|loses|losing) (?:trust|confidence|faith)',
      'loss of (?:trust|confidence)',
    ],
    weight: -0.35,
    method: 'sentiment',
    label: 'mood souring',
    ownsNegation: true,
  }),
  rule({
    id: 'market.mood-lifts',
    patterns: [
      `(?:sentiment|mood|risk appetite|confidence)${GAP(12)}\\b(?:improv\\w*|brighten\\w*|lifts?|recover\\w*|returns?|turns? (?:positive|bullish))`,
      'risk-on',
    ],
    weight: 0.35,
    method: 'sentiment',
    label: 'mood lifting',
  }),
];
