import { anyOf, GAP, PAUSED, rule, type LexiconRule } from './lexicon-rule.js';

// Exchanges and custodians acting on a coin or on their customers: trading, deposits or accounts
// stopped or restored, a run, repayments. Withdrawals, listings, delistings and insolvency have their
// own rules in the fundamental table.

const STOP = anyOf(...PAUSED, 'shut(?:s|ting)?');
const SERVICE = anyOf(
  'trading',
  'deposits?',
  'redemptions?',
  'services',
  'operations',
  'transfers',
  'accounts',
  'payouts',
  'sign-?ups',
  'margin trading',
  'dollar deposits',
  'fiat deposits',
);
const RESTART = anyOf(
  'resum(?:e|es|ed|ing)',
  'reopen(?:s|ed|ing)?',
  'restor(?:e|es|ed|ing)',
  'reinstat(?:e|es|ed|ing)',
  'relaunch(?:es|ed|ing)?',
  'relaunch',
  're-?enabl(?:e|es|ed|ing)',
  're-?activat(?:e|es|ed|ing)',
  'enabl(?:e|es|ed|ing)',
);

export const exchangeRules = (): readonly LexiconRule[] => [
  rule({
    id: 'exchange.service-halted',
    patterns: [
      `${STOP}${GAP(25)}\\b${SERVICE}`,
      `${SERVICE}${GAP(25)}\\b(?:halted|paused|suspended|frozen|disabled|closed|shut|stopped)`,
      `(?:freez(?:es|e|ing)|froze)${GAP(25)}\\b(?:customer\\s+|user\\s+)?(?:accounts|funds|deposits)`,
      `(?:caps?|capped|limits?|limited|restricts?|restricted)${GAP(20)}\\bwithdrawals`,
      `withdrawals?${GAP(15)}\\b(?:stuck|disabled|frozen|restricted|limited|capped|delayed)`,
      '(?:investment|trading) warning',
      `shut(?:s)? down${GAP(15)}\\b(?:platform|exchange|operations|app)?`,
      `(?:platform|exchange|site|website|app)${GAP(15)}\\b(?:shut down|goes offline|went offline|goes down|went down)`,
    ],
    weight: -0.55,
    method: 'fundamental',
    label: 'trading or deposits halted',
    negated: { factor: -0.5, label: 'services resumed' },
  }),
  rule({
    id: 'exchange.cannot-withdraw',
    patterns: [
      `(?:cannot|can't|unable to|could not|couldn't|can no longer)\\s+(?:withdraw|move|access|get back|get out|redeem)(?:\\s+(?:their|any|its|the|customer|user|his|her|my)?\\s*(?:funds|money|coins|assets|savings|deposits|crypto))?(?:\\s+from\\s+(?:the\\s+)?(?:exchange|platform|app|lender|wallet))?`,
      `(?:still\\s+)?waiting for (?:their |customer )?(?:funds|money|withdrawals|repayments?)`,
      '(?:stuck|locked) (?:funds|deposits|withdrawals)',
    ],
    weight: -0.55,
    method: 'fundamental',
    label: 'customers cannot withdraw',
    ownsNegation: true,
  }),
  rule({
    id: 'exchange.service-resumed',
    patterns: [
      `${RESTART}${GAP(25)}\\b(?:${SERVICE}|withdrawals?|platform|the (?:\\w+ )?market|to users|service)(?:${GAP(30)}\\b(?:pause|halt|suspension|freeze|outage|hiatus))?`,
      `(?:${SERVICE}|withdrawals?)${GAP(20)}\\b(?:resum\\w*|reopen\\w*|restor\\w*|back online|flowing again|back to normal|processed|reinstated)`,
      `lift(?:s|ed|ing)?${GAP(20)}\\b(?:warning|suspension|halt|freeze|restrictions?|sanctions)`,
      '(?:warning|suspension|halt|freeze|restrictions?|sanctions?) (?:is |was |were )?lifted',
      '(?:fully|1:1|100%) backed',
      'full reserves',
      'relist(?:s|ed|ing)?',
      'relaunch(?:es|ed)',
      'returns? to (?:the |an? )?(?:exchange|platform|trading)',
    ],
    weight: 0.4,
    method: 'fundamental',
    label: 'services restored',
  }),
  rule({
    id: 'exchange.repaid',
    patterns: [
      `(?:repay|reimburs|compensat|refund)\\w*${GAP(25)}\\b(?:customers|creditors|users|clients|victims|depositors|in full)`,
      `(?:payouts?|distributions?|repayments?)${GAP(15)}\\b(?:begin|began|start|started|resume|arrive|go out|are made)`,
      '(?:first|second|third|final|initial) (?:payouts?|distributions?|repayments?)',
      '(?:made|makes?|making) (?:(?:its|the|all)\\s+)?(?:users|customers|victims|depositors|creditors|holders)?\\s*whole',
      'in full with interest',
    ],
    weight: 0.4,
    method: 'fundamental',
    label: 'customers repaid',
  }),
  rule({
    id: 'exchange.run',
    patterns: [
      'run on (?:the |its )?(?:exchange|bank|platform|deposits|lender|stablecoin)',
      'bank run',
      `rush(?:es|ed|ing)? to (?:pull|withdraw|exit|cash out|redeem)`,
      `(?:queue|wave|flood|rush|surge) of (?:withdrawals|redemptions)`,
      `(?:withdrawal|redemption) (?:queue|rush|wave|requests? (?:surge|spike|pile up))`,
      'pull(?:s|ed|ing)? (?:their |customer )?(?:funds|deposits|money)',
      '(?:flee|fleeing|fled) the (?:exchange|platform)',
    ],
    weight: -0.55,
    method: 'fundamental',
    label: 'run on the platform',
  }),
];
