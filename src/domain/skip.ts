/**
 * Why a thread was skipped: one kind per cause, each with the words a person reads in `agent stats`. A
 * skip's `reason` is the sentence for one thread ("strength +0.12 is below the selective threshold
 * 0.30"); its kind is what many skips share ("below-threshold"). The order here is the order of the rule
 * (src/posting/skip-rule.ts): before anything is read, then the decision, then the service's answer.
 *
 * In the domain layer because the analysis (parts layer), the poll, posting and the history (work layer)
 * and the commands all name these kinds.
 */
export const SKIP_KINDS = {
  'already-predicted': 'this agent had already predicted on it',
  'may-have-landed': 'an earlier post on it may have landed',
  locked: 'locked: it took no more predictions',
  malformed: 'the service sent it malformed',
  'keyed-thread': 'it held a key of this agent (id, cell, text or a citation)',
  'no-evidence': 'no evidence either way',
  'weak-evidence': 'the evidence was too weak',
  'mixed-evidence': 'the evidence cancelled out',
  bias: "the profile's bias outweighed the evidence",
  'below-threshold': "the strength was below the profile's participation threshold",
  'analyzer-skip': 'the analyzer chose to skip',
  'unusable-answer': "the analyzer's answer could not be used",
  contradiction: "the analyzer's text contradicted its size",
  other: 'other reasons (agent history has each one)',
} as const;

export type SkipKind = keyof typeof SKIP_KINDS;

/** A skip: its kind, and the reason for this one thread. */
export interface Skip {
  skipKind: SkipKind;
  reason: string;
}

export function isSkipKind(value: unknown): value is SkipKind {
  return typeof value === 'string' && Object.hasOwn(SKIP_KINDS, value);
}

/**
 * The kind of a reason written before skips carried one (history lines of older versions), from the
 * fixed words each cause has always begun with; `other` for the rest (an external analyzer's own words).
 */
export function skipKindOfReason(reason: string): SkipKind {
  for (const [kind, matches] of OLD_WORDS) if (matches(reason)) return kind;
  return 'other';
}

// Plain string tests, no regular expression: these run on every line stats reads.
const OLD_WORDS: ReadonlyArray<[SkipKind, (reason: string) => boolean]> = [
  ['locked', (r) => r === 'locked'],
  ['already-predicted', (r) => r === 'already predicted by this agent'],
  ['may-have-landed', (r) => r.startsWith('an earlier post on it may have landed')],
  [
    'keyed-thread',
    (r) => r.startsWith("the thread's cell holds a key of this agent") || r.startsWith('refused: the thread'),
  ],
  ['malformed', (r) => r.startsWith('malformed thread') || r.startsWith('its id cannot be sent back')],
  ['no-evidence', (r) => r.startsWith('no evidence')],
  ['weak-evidence', (r) => r.startsWith('the evidence is too weak')],
  ['mixed-evidence', (r) => r.startsWith('the evidence cancels out')],
  ['bias', (r) => r.includes(' bias outweighs the weak evidence')],
  ['below-threshold', (r) => r.startsWith('strength ') && r.includes(' threshold ')],
  ['analyzer-skip', (r) => r === 'the analyzer chose to skip'],
  [
    'unusable-answer',
    (r) => r.startsWith('the analyzer gave ') || r.startsWith('the analyzer returned neither a signal nor a decision'),
  ],
  ['contradiction', (r) => r.startsWith("the analyzer's text says ")],
];
