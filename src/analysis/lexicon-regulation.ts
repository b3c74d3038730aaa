import { anyOf, GAP, rule, type LexiconRule } from './lexicon-rule.js';

// Regulation and law: what a regulator, a court or a legislature decided. A decision moves a coin;
// a hearing, a consultation or a filing that is still open does not, and a decision that is still
// awaited is a negative (the negation cues of lack and need turn the positive rules around).

const DECIDER = anyOf(
  'sec',
  'cftc',
  'fca',
  'finma',
  'occ',
  'regulators?',
  'watchdogs?',
  'commission',
  'authorit(?:y|ies)',
  'central bank',
  'ministry',
  'government',
  'congress',
  'parliament',
  'lawmakers',
);
const COURT = anyOf('court', 'judge', 'jury', 'appeals? court', 'supreme court', 'tribunal');
const PERMIT = anyOf(
  'licen[cs]es?',
  'approvals?',
  'charters?',
  'registrations?',
  'permits?',
  'green light',
  'go-ahead',
  'nod',
  'exemptions?',
);
const APPROVE = anyOf(
  'approv(?:es|ed)',
  'green[- ]?lights?',
  'green[- ]?lit',
  'clears?',
  'cleared',
  'authori[sz](?:es|ed)',
  'gives? (?:the )?(?:green light|go-ahead|nod)',
  'signs? off on',
);
const PRODUCT = anyOf(
  'applications?',
  'filings?',
  'proposals?',
  'requests?',
  'bids?',
  'funds?',
  'products?',
  'licen[cs]e',
  'plans?',
  'merger',
  'listings?',
);

// Undoing an adoption: the verbs that take legal tender status away.
const UNDO = anyOf(
  'remov(?:e|es|ed|ing)',
  'drop(?:s|ped|ping)?',
  'scrap(?:s|ped|ping)?',
  'repeal(?:s|ed|ing)?',
  'revok(?:e|es|ed|ing)',
  'abandon(?:s|ed|ing)?',
  'ends?',
  'ended',
  'ending',
  'revers(?:e|es|ed|ing)',
  'roll(?:s|ed|ing)? back',
  'rescind(?:s|ed|ing)?',
  'strip(?:s|ped|ping)?',
  'withdr[ae]w(?:s|n|ing)?',
  'ditch(?:es|ed|ing)?',
);
// Before "bitcoin law" or "crypto payments" only the verbs that say undo: "ends" or "drops" there is as
// often a week that ends or a volume that drops.
const UNDO_LAW = anyOf(
  'repeal(?:s|ed|ing)?',
  'revok(?:e|es|ed|ing)',
  'revers(?:e|es|ed|ing)',
  'roll(?:s|ed|ing)? back',
  'rescind(?:s|ed|ing)?',
  'scrap(?:s|ped|ping)?',
  'abandon(?:s|ed|ing)?',
  'undo(?:es|ing)?',
  'undid',
);

export const regulationRules = (): readonly LexiconRule[] => [
  rule({
    id: 'regulation.approval',
    patterns: [
      `${DECIDER}${GAP(30)}\\b${APPROVE}`,
      `(?:wins?|won|gets?|got|receives?|received|secures?|secured|obtains?|obtained|granted|awarded|hands?|handed|grants?|issues?|issued)${GAP(30)}\\b(?:full\\s+|final\\s+|regulatory\\s+|operating\\s+)?${PERMIT}`,
      `${PERMIT}\\s+(?:granted|approved|secured|won)`,
      `${APPROVE}${GAP(25)}\\b(?:in-kind|options|staking|the merger|the listing|trading)`,
      // Alone, the noun is mostly news of an approval awaited or sought: the lack cues turn it around.
      '(?:regulatory |final |an |the )?approval(?! ratings?)',
    ],
    weight: 0.5,
    method: 'macro',
    label: 'regulatory approval',
    negated: { factor: -0.6, label: 'approval refused' },
    lacking: { factor: -0.6, label: 'approval still missing' },
  }),
  rule({
    id: 'regulation.rejection',
    patterns: [
      `(?:reject(?:s|ed)?|den(?:y|ies|ied)|turn(?:s|ed)? down|refus(?:es|ed)|veto(?:es|ed)?|block(?:s|ed))${GAP(30)}\\b${PRODUCT}`,
      `${PRODUCT}${GAP(20)}\\b(?:rejected|denied|turned down|refused|vetoed)`,
    ],
    weight: -0.55,
    method: 'macro',
    label: 'regulator says no',
    ownsNegation: true,
  }),
  rule({
    id: 'regulation.delay',
    patterns: [
      `(?:delay(?:s|ed)?|postpon(?:es|ed)|push(?:es|ed)? back|extend(?:s|ed)?|punt(?:s|ed)?)${GAP(30)}\\b(?:its\\s+)?(?:decisions?|reviews?|rulings?|deadlines?|approvals?|verdicts?)`,
      `(?:decisions?|rulings?|reviews?|verdicts?|deadlines?)${GAP(20)}\\b(?:delayed|postponed|pushed (?:back|to)|extended)`,
    ],
    weight: -0.35,
    method: 'macro',
    label: 'regulatory decision delayed',
    ownsNegation: true,
  }),
  rule({
    id: 'regulation.adoption',
    patterns: [
      'legal tender',
      'legali[sz](?:es|ed|ing|ation)',
      `adopt(?:s|ed|ing|ion)${GAP(20)}\\b(?:bitcoin|btc|crypto|stablecoins?)`,
      `accept(?:s|ed|ing)?\\s+(?:bitcoin|btc|crypto|stablecoins?|usdc|usdt|tether|ether|eth|sol|xrp|doge|dogecoin)${GAP(25)}(?:\\b(?:payments?|taxes|fees))?`,
      '(?:bitcoin|crypto|digital asset) (?:reserve|council|hub|strategy)',
      'crypto hub',
      `(?:adds?|add|adding|hold|holds|buy|buys)\\s+bitcoin\\s+(?:to|in)\\s+(?:its\\s+|their\\s+)?(?:national\\s+|foreign\\s+)?reserves`,
    ],
    weight: 0.45,
    method: 'macro',
    label: 'crypto adopted',
    negated: { factor: -0.6, label: 'adoption denied' },
  }),
  rule({
    // "Removes bitcoin as legal tender", "repeals its bitcoin law": the words of an adoption, undone. Longer
    // than "legal tender", so it wins the overlap and the adoption is not read.
    id: 'regulation.adoption-reversed',
    patterns: [
      `${UNDO}${GAP(40)}\\blegal tender`,
      `legal tender${GAP(25)}\\b(?:removed|dropped|scrapped|repealed|revoked|abandoned|ended|reversed|rolled back|rescinded|withdrawn)`,
      `${UNDO_LAW}${GAP(20)}\\b(?:its\\s+|the\\s+|their\\s+)?(?:bitcoin|btc|crypto) (?:laws?|adoption|payments?|mandate)`,
    ],
    weight: -0.45,
    method: 'macro',
    label: 'adoption reversed',
    negated: { factor: -0.6, label: 'adoption kept' },
  }),
  rule({
    // "No longer treats bitcoin as legal tender": the negation is the news, so it is not read again.
    id: 'regulation.adoption-ended',
    patterns: [
      `(?:no longer|ceases? to be|ceased to be|stops? being|stopped being)${GAP(30)}\\blegal tender`,
      'los(?:es|t|ing) (?:its\\s+)?legal tender status',
    ],
    weight: -0.45,
    method: 'macro',
    label: 'adoption reversed',
    ownsNegation: true,
  }),
  rule({
    id: 'regulation.law-passed',
    patterns: [
      `(?:bill|act|legislation|law|framework)${GAP(40)}\\b(?:pass(?:es|ed)|signed|approved|becomes law|enacted|clears?|cleared)`,
      `(?:pass(?:es|ed)|signs?|signed|enacts?|enacted)${GAP(40)}\\b(?:bill|act|law|legislation)`,
      'signed into law',
    ],
    weight: 0.4,
    method: 'macro',
    label: 'crypto law passed',
    negated: { factor: -0.6, label: 'law not passed' },
    lacking: { factor: -0.6, label: 'law not passed yet' },
  }),
  rule({
    id: 'regulation.bill-stalls',
    patterns: [
      `(?:bill|legislation|act|law|proposal)${GAP(25)}\\b(?:stalls?|stalled|stuck|fails?|failed|dies|died|shelved|voted down|blocked)`,
    ],
    weight: -0.35,
    method: 'macro',
    label: 'crypto bill stalls',
    ownsNegation: true,
  }),
  rule({
    id: 'regulation.friendly-rules',
    patterns: [
      `(?:eas(?:es|ed|ing)|relax(?:es|ed|ing)?|loosen(?:s|ed|ing)?|simplif(?:y|ies|ied))${GAP(20)}\\b(?:rules|restrictions|requirements|regulations|regime)`,
      `(?:lets?|letting|allows?|allowing|allowed|permits?|permitting)\\s+(?:national\\s+|commercial\\s+)?(?:banks?|clients|customers|users|savers|investors|institutions|pension funds|funds)${GAP(25)}\\b(?:to\\s+)?(?:buy|sell|hold|custody|offer|trade|put|pay|use|invest|send|stake|accept)`,
      `(?:banks?|clients|customers|savers|investors|users)\\s+(?:can|may)\\s+(?:now\\s+)?(?:buy|hold|custody|offer|trade|put|invest|stake)`,
      'protect(?:s|ing)? (?:the right to )?self-custody',
      'bitcoin rights',
      `(?:make|making|become|becoming)${GAP(25)}\\b(?:a |the )?(?:crypto|bitcoin|digital asset) (?:hub|capital)`,
    ],
    weight: 0.35,
    method: 'macro',
    label: 'friendlier rules',
  }),
  rule({
    id: 'regulation.hostile-rules',
    patterns: [
      `tighten(?:s|ed|ing)?${GAP(20)}\\b(?:rules|restrictions|oversight|scrutiny|regulations?|requirements|controls|grip)`,
      `(?:harsh(?:er|est)?|punitive|strict(?:er|est)?|tough(?:er|est)?|burdensome|onerous|heav(?:y|ier|iest))\\s+(?:new\\s+)?(?:rules|capital(?: charges?)?|charges?|treatment|requirements|regulations?|regime|tax(?:es)?|levies)`,
      'crippl(?:e|es|ed|ing)',
      `(?:slaps?|slapped|impos(?:es|ed|e)|levies|levy|introduces?)${GAP(25)}\\b(?:new\\s+)?(?:tax(?:es)?|levy|duty|restrictions?|curbs?|reporting rules)`,
      `(?:new rules\\s+)?requir(?:e|es|ed|ing)${GAP(30)}\\bto (?:report|register|disclose|verify|identify)`,
      `(?:orders?|ordered|forc(?:es|ed|e)|compels?|compelled)${GAP(30)}\\bto (?:report|hand over|disclose|share)`,
      '(?:block(?:s|ed|ing)?|restrict(?:s|ed|ing)?|limit(?:s|ed|ing)?|curb(?:s|ed|ing)?) access',
      'demand(?:s|ed|ing)? (?:user|customer|client|trader)s? (?:data|records|information|details)',
      'curbs? on',
      'restrictions? on',
      `warn(?:s|ed|ing)?${GAP(25)}\\b(?:consumers|investors|the public|users)`,
    ],
    weight: -0.4,
    method: 'macro',
    label: 'stricter rules',
  }),
  rule({
    id: 'regulation.enforcement',
    patterns: [
      'cease[- ]and[- ]desist',
      `ordered to (?:pay|stop|halt|cease|close|shut|wind down|suspend|return|disgorge)`,
      `orders?${GAP(35)}\\bto (?:stop|halt|cease|close|shut|suspend|wind down)`,
      `files? (?:a\\s+)?(?:law)?suit`,
      `tak(?:es|ing|e)${GAP(30)}\\bto court`,
      'probes?',
      'investigat(?:es|ed|ing|ions?)',
      'penalt(?:y|ies)',
      'fines?(?=\\s+(?:of|worth|totall?ing|\\$|for))',
      '\\$[\\d.,]+\\s?(?:[mb]n?|million|billion)? fine',
      `(?:freez(?:es|e|ing)|froze)${GAP(25)}\\b(?:assets|funds|accounts|tokens)`,
      'assets? (?:frozen|freeze)',
      'raid(?:s|ed)?',
      'sanction(?:s|ed)',
      'crack(?:s|ed|ing)? down',
      `(?:is|was|were|are|be)\\s+(?:offered as\\s+|sold as\\s+)?(?:a\\s+|an\\s+)?(?:unregistered\\s+)?securit(?:y|ies)(?!\\s+(?:lawyers?|attorneys?|experts?|laws?|firms?|tokens?|analysts?|regulators?))`,
      'unregistered securit(?:y|ies)',
      `${COURT}${GAP(40)}\\b(?:sides? with the (?:sec|regulator|government|prosecutors?|cftc)|rul(?:es|ed) against)`,
      `los(?:es|t|ing)${GAP(20)}\\b(?:its\\s+)?(?:case|lawsuit|appeal|licen[cs]e|charter|registration)`,
      `licen[cs]es?${GAP(10)}\\b(?:revoked|suspended|pulled|cancell?ed|withdrawn)`,
      `(?:revok(?:es|ed)|suspend(?:s|ed)|pull(?:s|ed)|cancel(?:s|led))${GAP(20)}\\blicen[cs]es?`,
    ],
    weight: -0.5,
    method: 'macro',
    label: 'enforcement action',
    negated: { factor: -0.5, label: 'enforcement lifted' },
  }),
  rule({
    id: 'regulation.court-win',
    patterns: [
      // The case it rules in ("… in SEC lawsuit") is part of the ruling, not a second, bearish event.
      `${COURT}${GAP(40)}\\b(?:overturn(?:s|ed)?|strikes? down|struck down|blocks?|blocked|rul(?:es|ed) (?:for|in favou?r of)|sides? with (?!the (?:sec|regulator|government|prosecutors?|cftc))|throws? out|threw out|dismiss(?:es|ed)|acquit(?:s|ted)?|declin(?:es|ed) to hear)(?:${GAP(30)}\\b(?:lawsuit|case|suit|battle|appeal|fight))?`,
      'not (?:a |an )?(?:unregistered )?securit(?:y|ies)',
      `overturn(?:s|ed)${GAP(30)}\\b(?:sanctions|ban|ruling|rules|conviction|order)`,
      `(?:wins?|won|winning)${GAP(30)}\\b(?:its\\s+)?(?:court\\s+)?(?:case|lawsuit|suit|appeal|ruling|court fight|battle)`,
      '(?:ruling|win|decision) stands',
      'leaving the (?:\\w+ )?ruling in place',
    ],
    weight: 0.5,
    method: 'macro',
    label: 'court rules for crypto',
    // The verdicts carry their own negations ("not a security", "throws out").
    ownsNegation: true,
  }),
];
