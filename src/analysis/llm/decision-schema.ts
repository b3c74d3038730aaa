import * as z from 'zod/mini';

// The answer asked of the model, twice: as JSON Schema for the server (which may or may not enforce it)
// and as zod for us (which always does). They sit side by side so that they change together.

/**
 * Strict structured outputs (OpenAI, and the servers that copy it) want every property required and no
 * others, so a skip still carries a conviction and a text, and a post a reason: the descriptions say
 * which fields count for which action.
 */
export const DECISION_JSON_SCHEMA = {
  type: 'object',
  properties: {
    action: {
      type: 'string',
      enum: ['post', 'skip'],
      description: 'post a prediction on this thread, or skip it (skipping costs nothing)',
    },
    conviction: {
      type: 'number',
      description:
        'for post: the predicted price move in % over the next 3 hours, signed, one decimal, never 0; for skip: 0',
    },
    text: {
      type: 'string',
      description:
        'for post: the public prediction text, 20-300 characters: direction, size and the main reason; for skip: ""',
    },
    reason: {
      type: 'string',
      description: 'for skip: why, in one short sentence; for post: the main evidence in a few words',
    },
  },
  required: ['action', 'conviction', 'text', 'reason'],
  additionalProperties: false,
} as const;

export const SCHEMA_NAME = 'prediction_decision';

/**
 * What we accept, whatever the server promised. Only the fields that count for the action are required
 * (a local model without schema support often drops the others); extra keys are ignored. Sizes and
 * texts are not judged here: the policy clamps and fits them like any analyzer's.
 */
export function decisionSchema() {
  const finite = z
    .number({ error: 'must be a number' })
    .check(z.refine(Number.isFinite, { message: 'must be a finite number' }));
  const string = z.string({ error: 'must be a string' });
  return z.discriminatedUnion(
    'action',
    [
      z.looseObject({ action: z.literal('post'), conviction: finite, text: string }),
      z.looseObject({ action: z.literal('skip'), reason: z.optional(string) }),
    ],
    { error: 'must be "post" or "skip"' },
  );
}
