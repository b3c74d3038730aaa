import type { ConvictionStyle, DirectionalBias, Participation, Profile, SignalMethod } from '../../domain/profile.js';
import { PROFILE_NUMBERS, sizeCap } from '../profile-numbers.js';

// The profile as a model can act on it: words, with the numbers of docs/analyzer.md#how-the-analyzer-decides behind
// them, so that an LLM's decisions mean what the built-in analyzer's mean. Evidence strength is described on the
// same 0-1 scale the policy uses for signals.

const SIZE_WORDS: Record<ConvictionStyle, string> = {
  conservative: 'small sizes',
  moderate: 'medium sizes',
  bold: 'large sizes',
  degen: 'very large sizes',
};

const PARTICIPATION_WORDS: Record<Participation, string> = {
  selective: 'post only on strong, clear evidence of a direction; skip anything mixed, vague or already priced in',
  moderate: 'post when the evidence clearly leans one way; skip when it is mixed or weak',
  active: 'post whenever the thread gives real evidence of a direction, even modest; still skip when it gives none',
};

const METHOD_WORDS: Record<SignalMethod, string> = {
  technical: 'technical evidence (price levels, breakouts, RSI, moving averages)',
  fundamental: 'fundamental evidence (listings, ETFs, partnerships, upgrades, token unlocks)',
  sentiment: 'sentiment evidence (fear and greed, social hype, crowd mood)',
  onchain: 'on-chain evidence (whale moves, exchange inflows and outflows, TVL)',
  macro: 'macro evidence (interest rates, CPI, regulation)',
};

/** One decimal, as sizes are posted. */
function pct(value: number): string {
  return `${value.toFixed(1)}%`;
}

export function sizeWords(style: ConvictionStyle, sigma: number): string {
  const [low, top] = PROFILE_NUMBERS.style[style];
  const from = Math.max(0.1, Math.round(low * sigma * 10) / 10);
  return (
    `${style}: ${SIZE_WORDS[style]}, about ${low}-${top} × the cell's typical 3-hour move of ${pct(sigma)}, ` +
    `so roughly ${pct(from)} to ${pct(sizeCap(style, sigma))} either way; larger sizes are cut down to ${pct(sizeCap(style, sigma))}`
  );
}

export function participationWords(participation: Participation): string {
  const threshold = PROFILE_NUMBERS.participation[participation].toFixed(2);
  return `${participation}: ${PARTICIPATION_WORDS[participation]} (rating the evidence from 0 = none to 1 = overwhelming, post at ${threshold} or more)`;
}

export function biasWords(bias: DirectionalBias): string {
  if (bias === 'neutral') return 'neutral: no lean; weigh evidence for a rise and for a fall alike';
  const shift = Math.abs(PROFILE_NUMBERS.bias[bias]).toFixed(2);
  const [toward, against] = bias === 'bullish' ? ['a rise', 'a fall'] : ['a fall', 'a rise'];
  return (
    `${bias}: lean toward ${toward}: rate evidence for ${toward} about ${shift} higher on that scale; ` +
    `never predict ${toward} when the evidence points to ${against}, and never post without evidence`
  );
}

export function methodWords(method: SignalMethod): string {
  return `${method}: ${METHOD_WORDS[method]} counts about ${PROFILE_NUMBERS.methodBoost}× as much as other evidence`;
}

/** The four lines of the profile, in the order a reader needs them. */
export function profileWords(profile: Profile, sigma: number): string[] {
  return [
    `- size: ${sizeWords(profile.conviction_style, sigma)}.`,
    `- participation: ${participationWords(profile.participation)}.`,
    `- bias: ${biasWords(profile.directional_bias)}.`,
    `- method: ${methodWords(profile.signal_method)}.`,
  ];
}
