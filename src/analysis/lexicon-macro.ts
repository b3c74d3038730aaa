import { GAP, rule, type LexiconRule } from './lexicon-rule.js';

const INFLATION = '(?:cpi|inflation|pce|ppi|core prices)';
const VS_EXPECTED = '(?:\\s+than)?\\s+(?:expected|forecasts?|estimates?|expectations|consensus)';
const LEGAL = '(?:lawsuits?|case|charges|probe|investigation|suit|enforcement action)';

export const MACRO_RULES: readonly LexiconRule[] = [
  rule({
    id: 'macro.rate-cut',
    patterns: [
      'rate cuts?',
      'cut(?:s|ting)?\\s+(?:interest\\s+)?rates?',
      'lower(?:s|ed|ing)?\\s+(?:interest\\s+)?rates',
      '(?:\\d+\\s*)?(?:bps|basis[- ]points?)\\s+cut',
    ],
    weight: 0.5,
    method: 'macro',
    label: 'rate cuts',
    negated: { factor: -0.5, label: 'no rate cut' },
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
    patterns: ['dovish', 'quantitative easing', 'monetary easing', 'liquidity injection'],
    weight: 0.35,
    method: 'macro',
    label: 'dovish Fed',
    negated: { factor: -0.4, label: 'Fed not dovish' },
  }),
  rule({
    id: 'macro.hawkish',
    patterns: ['hawkish', 'quantitative tightening', 'monetary tightening'],
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
      `(?:dxy|dollar index|us dollar|dollar)${GAP(15)}\\b(?:surg\\w*|ris(?:e|es|ing)|rose|rall\\w*|strengthen\\w*|jump\\w*|climb\\w*)`,
    ],
    weight: -0.25,
    method: 'macro',
    label: 'stronger dollar',
  }),
  rule({
    id: 'macro.dollar-weak',
    patterns: [
      `(?:dxy|dollar index|us dollar|dollar)${GAP(15)}\\b(?:fall(?:s|ing)?|fell|slid(?:es|ing)?|weaken\\w*|drop\\w*|tumbl\\w*|declin\\w*)`,
    ],
    weight: 0.25,
    method: 'macro',
    label: 'weaker dollar',
  }),
  rule({
    id: 'macro.recession',
    patterns: ['recession (?:fears?|risks?|worries)', 'risk-off', 'risk off mood'],
    weight: -0.3,
    method: 'macro',
    label: 'risk-off macro',
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
      `(?:drops?|dropped|dismiss(?:es|ed)?|ends?|ended|clos(?:es|ed)|withdr[ae]w(?:s|n)?|settl(?:es|ed)|wins?|won)${GAP(30)}\\b${LEGAL}`,
      `${LEGAL}${GAP(30)}\\b(?:dropped|dismissed|closed|withdrawn|settled|ended|thrown out)`,
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
      'regulatory clarity',
      'pro-crypto',
      'crypto-friendly',
      `(?:crypto|stablecoin|market structure|digital asset)\\s+(?:bill|act|framework|legislation)${GAP(20)}\\b(?:pass(?:es|ed)?|signed|approved|becomes law)`,
    ],
    weight: 0.35,
    method: 'macro',
    label: 'regulatory clarity',
  }),
];
