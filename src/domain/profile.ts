// The four prediction-profile fields and their allowed values (docs/service.md#register).
// One list used by the CLI's validation, the service schemas, the policy and the sandbox.
export const SIGNAL_METHODS = ['technical', 'fundamental', 'sentiment', 'onchain', 'macro'] as const;
export const CONVICTION_STYLES = ['conservative', 'moderate', 'bold', 'degen'] as const;
export const DIRECTIONAL_BIASES = ['bullish', 'bearish', 'neutral'] as const;
export const PARTICIPATIONS = ['selective', 'moderate', 'active'] as const;

export type SignalMethod = (typeof SIGNAL_METHODS)[number];
export type ConvictionStyle = (typeof CONVICTION_STYLES)[number];
export type DirectionalBias = (typeof DIRECTIONAL_BIASES)[number];
export type Participation = (typeof PARTICIPATIONS)[number];

export interface Profile {
  signal_method: SignalMethod;
  conviction_style: ConvictionStyle;
  directional_bias: DirectionalBias;
  participation: Participation;
}

export const PROFILE_FIELDS = {
  signal_method: SIGNAL_METHODS,
  conviction_style: CONVICTION_STYLES,
  directional_bias: DIRECTIONAL_BIASES,
  participation: PARTICIPATIONS,
} as const;

export const LIMITS = {
  nameMin: 3,
  nameMax: 50,
  bioMax: 500,
  textMin: 20,
  textMax: 300,
  defaultThreadLimit: 50,
  /** The interface names no maximum; this is the project's sandbox's, so a poll never asks for more than it serves. */
  maxThreadLimit: 100,
} as const;
