import { GAP, rule, type LexiconRule } from './lexicon-rule.js';

const INFLATION = '(?:cpi|inflation|pce|ppi|core prices)';
const VS_EXPECTED = '(?:\\s+than)?\\s+(?:expected|forecasts?|estimates?|expectations|consensus)';
// What may stand between "drops" and the case it drops: up to four words (articles, qualifiers, who
// brought it: "settles VA pricing investigation"), but no size, no adverb, no comparative and no
// preposition: "BNB drops 10% following SEC lawsuit", "XRP drops sharply in SEC lawsuit fallout", "ends
// week lower with SEC probe looming" and "its sharpest drop since the lawsuit" are falls.
const CASE_WORDS =
  '(?:\\s+(?!(?:as|after|following|amid|while|despite|on|in|with|over|to|below|under|at|from|by|for|since|' +
  'before|during|until|ahead|into|through|around|near|than|toward|towards|' +
  "lower|higher|further|more|less|deeper)\\b)[a-z'’.-]+(?<!ly)){0,4}?";
const LEGAL =
  '(?:lawsuits?|class actions?|case|charges|probe|investigation|suit|enforcement action|claims|allegations)';

export const macroRules = (): readonly LexiconRule[] => [
  rule({
    id: 'macro.rate-cut',
    patterns: [
      'rate cuts?',
      'cut(?:s|ting)?\\s+(?:interest\\s+)?rates?',
      '(?:bet(?:s|ting)?|pric(?:e|es|ing)) (?:in |on )?(?:more |further )?(?:rate )?cuts',
      'lower(?:s|ed|ing)?\\s+(?:interest\\s+)?rates',
      '(?:\\d+\\s*)?(?:bps|basis[- ]points?)\\s+cut',
    ],
    weight: 0.5,
    method: 'macro',
    label: 'rate cuts',
    negated: { factor: -0.5, label: 'no rate cut' },
    lacking: { factor: -0.5, label: 'no rate cut yet' },
  }),
  rule({
    id: 'macro.rate-hike',
    patterns: [
      'rate hikes?',
      'hik(?:e|es|ed|ing)\\s+(?:interest\\s+)?rates?',
      'rais(?:e|es|ed|ing)\\s+(?:interest\\s+)?rates',
      '(?:\\d+\\s*)?(?:bps|basis[- ]points?)\\s+hike',
    ],
    weight: -0.5,
    method: 'macro',
    label: 'rate hikes',
    negated: { factor: -0.5, label: 'no rate hike' },
  }),
  rule({
    id: 'macro.dovish',
    patterns: [
      'dovish',
      'quantitative easing',
      'monetary easing',
      'liquidity injection',
      `end(?:s|ed|ing)?${GAP(10)}\\b(?:quantitative tightening|qt)`,
      'cooling (?:labou?r|jobs) market',
    ],
    weight: 0.35,
    method: 'macro',
    label: 'dovish Fed',
    negated: { factor: -0.4, label: 'Fed not dovish' },
  }),
  rule({
    id: 'macro.hawkish',
    patterns: [
      'hawkish',
      'quantitative tightening',
      'monetary tightening',
      '(?:fewer|less|smaller|no more) (?:rate[- ])?cuts',
      `(?:push(?:es|ed)? back|dash(?:es|ed)|trims?|trimmed|scal(?:es|ed) back)${GAP(15)}\\b(?:rate[- ]cut )?(?:bets|hopes|expectations)`,
    ],
    weight: -0.35,
    method: 'macro',
    label: 'hawkish Fed',
    negated: { factor: -0.4, label: 'Fed not hawkish' },
  }),
  rule({
    id: 'macro.inflation-hot',
    patterns: [
      `${INFLATION}${GAP(30)}\\b(?:hotter|higher|above|stronger|worse)${VS_EXPECTED}`,
      `hot(?:ter)?(?:-than-expected)?\\s+${INFLATION}`,
      `${INFLATION}\\s+(?:re-?accelerat\\w*|accelerat\\w*|jump\\w*|surg\\w*|spik\\w*|heats? up|runs? hot)`,
    ],
    weight: -0.5,
    method: 'macro',
    label: 'inflation hotter than expected',
  }),
  rule({
    id: 'macro.inflation-cool',
    patterns: [
      `${INFLATION}${GAP(30)}\\b(?:cooler|lower|below|softer|weaker|better)${VS_EXPECTED}`,
      `(?:cool(?:er)?|soft(?:er)?)(?:-than-expected)?\\s+${INFLATION}`,
      `${INFLATION}\\s+(?:cool(?:s|ed|ing)?|eas(?:es|ed|ing)|slow(?:s|ed|ing)?|fall(?:s|ing)?|fell|declin\\w*)`,
    ],
    weight: 0.5,
    method: 'macro',
    label: 'inflation cooler than expected',
  }),
  rule({
    id: 'macro.dollar-strong',
    patterns: [
      `(?:dxy|dollar index|us dollar|dollar)${GAP(15)}\\b(?:surg\\w*|ris(?:e|es|ing)|rose|rall\\w*|strengthen\\w*|jump\\w*|climb\\w*)(?:${GAP(20)}\\bhighs?)?`,
      `(?:dxy|dollar index|us dollar|dollar)${GAP(15)}\\b(?:hits?|reach\\w*|touch\\w*|at|to)\\s+(?:a\\s+)?(?:[\\w-]+\\s+){0,2}highs?`,
      'strong(?:er)? (?:us )?dollar',
      'dollar strength',
    ],
    weight: -0.25,
    method: 'macro',
    label: 'stronger dollar',
  }),
  rule({
    id: 'macro.dollar-weak',
    patterns: [
      `(?:dxy|dollar index|us dollar|dollar)${GAP(15)}\\b(?:fall(?:s|ing)?|fell|slid(?:es|ing)?|weaken\\w*|drop\\w*|tumbl\\w*|declin\\w*)(?:${GAP(20)}\\blows?)?`,
      'weak(?:er)? (?:us )?dollar',
    ],
    weight: 0.25,
    method: 'macro',
    label: 'weaker dollar',
  }),
  rule({
    id: 'macro.recession',
    patterns: [
      'recession (?:fears?|risks?|worries)',
      'risk-off',
      'risk off mood',
      'tariff (?:fears|threats?|war|worries|escalation)',
      'trade war',
      'geopolitical (?:tensions?|risks?|fears)',
      'tensions? escalat\\w*',
      'higher for longer',
      `(?:treasury |bond )?yields?${GAP(10)}\\b(?:spik|surg|jump|soar|climb|ris|rose)\\w*`,
      '(?:rising|higher|surging|soaring|climbing|spiking) (?:treasury |bond |us )?yields',
      `(?:global |stock )?markets? sell off`,
    ],
    weight: -0.3,
    method: 'macro',
    label: 'risk-off macro',
  }),
  rule({
    id: 'macro.tailwind',
    patterns: [
      'stimulus',
      'trade deal',
      `liquidity${GAP(15)}\\b(?:boost|injection|tailwind|surge|returns|grows)\\w*`,
      'boost(?:s|ing)? liquidity',
      `money supply${GAP(15)}\\b(?:grow|expan|ris|return|climb)\\w*`,
      'eas(?:es|ing|ed) (?:the )?pressure on (?:risk|crypto|markets)',
      'tailwinds?',
    ],
    weight: 0.35,
    method: 'macro',
    label: 'macro tailwind',
    negated: { factor: -0.5, label: 'no macro tailwind' },
  }),
  rule({
    id: 'macro.lawsuit',
    patterns: [
      'su(?:e|es|ed|ing)',
      'lawsuits?',
      'charg(?:es|ed) (?:against|with)',
      '(?:sec|cftc|doj|regulators?)\\s+charg(?:es|ed)',
      'indict\\w*',
      'subpoena\\w*',
      'wells notice',
      'enforcement action',
      'fined',
      'pleads? guilty',
      'arrest(?:s|ed)?',
    ],
    weight: -0.55,
    method: 'macro',
    label: 'lawsuit/regulatory charges',
    negated: { factor: -0.5, label: 'legal threat lifted' },
  }),
  rule({
    id: 'macro.legal-win',
    patterns: [
      // "against" is part of it, so that "drops charges against" outweighs the charge inside it.
      `(?:drops?|dropped|dismiss(?:es|ed)?|ends?|ended|ending|clos(?:es|ed)|withdr[ae]w(?:s|n)?|settl(?:es|ed)|wins?|won)${CASE_WORDS}\\s+${LEGAL}(?:\\s+against)?`,
      `${LEGAL}${GAP(45)}\\b(?:dropped|dismissed|closed|withdrawn|settled|ended|thrown out)`,
    ],
    weight: 0.5,
    method: 'macro',
    label: 'legal case dropped',
  }),
  rule({
    id: 'macro.crackdown',
    patterns: ['crackdown', 'bans?', 'banned', 'banning', 'outlaw\\w*', 'prohibit\\w*'],
    weight: -0.5,
    method: 'macro',
    label: 'regulatory crackdown',
    negated: { factor: -0.3, label: 'no crackdown' },
  }),
  rule({
    id: 'macro.ban-lifted',
    patterns: [`lift(?:s|ed|ing)?${GAP(20)}\\bbans?`, `bans?${GAP(10)}\\b(?:lifted|overturned|repealed)`],
    weight: 0.45,
    method: 'macro',
    label: 'ban lifted',
  }),
  rule({
    id: 'macro.regulatory-clarity',
    patterns: [
      '(?:regulatory |legal )?clarity',
      'clear (?:rules|regulations|guidelines|framework)',
      'pro-crypto',
      'crypto-friendly',
      `(?:crypto|stablecoin|market structure|digital asset)\\s+(?:bill|act|framework|legislation)${GAP(20)}\\b(?:pass(?:es|ed)?|signed|approved|becomes law)`,
    ],
    weight: 0.35,
    method: 'macro',
    label: 'regulatory clarity',
    negated: { factor: -1, label: 'no regulatory clarity' },
    lacking: { factor: -1, label: 'no regulatory clarity' },
  }),
];
