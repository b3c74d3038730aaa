import * as z from 'zod/mini';
import { isIsoInstant } from '../domain/instant.js';
import { CONVICTION_STYLES, DIRECTIONAL_BIASES, PARTICIPATIONS, SIGNAL_METHODS } from '../domain/profile.js';

// Service answers are parsed, never cast. Objects are loose: fields the service adds are kept (so
// `me --json` shows the agent as the service returned it) and never get in the way.
//
// Each schema is built on first use: building them all costs ~6 ms, and the cron run that finds
// nothing new parses none of them (docs/performance.md).

function lazy<T>(build: () => T): () => T {
  let built: T | undefined;
  return () => (built ??= build());
}

const idLike = lazy(() =>
  z.pipe(
    z.union([z.string().check(z.minLength(1)), z.number()]),
    z.transform((value) => String(value)),
  ),
);

const instant = lazy(() => z.string().check(z.refine(isIsoInstant, { message: 'not an ISO 8601 date-time' })));

const PLAIN_DECIMAL = /^-?\d+(?:\.\d+)?$/;

const numberLike = lazy(() =>
  z.pipe(
    z.union([z.number(), z.string()]),
    z.transform((value, ctx) => {
      // Text is a plain decimal only: Number() would also read "0x10", "0b11", "" and " " as numbers.
      const n = typeof value === 'number' ? value : PLAIN_DECIMAL.test(value) ? Number(value) : Number.NaN;
      if (!Number.isFinite(n)) ctx.issues.push({ code: 'custom', message: 'not a number', input: value });
      return n;
    }),
  ),
);

const profileShape = () => ({
  signal_method: z.enum(SIGNAL_METHODS),
  conviction_style: z.enum(CONVICTION_STYLES),
  directional_bias: z.enum(DIRECTIONAL_BIASES),
  participation: z.enum(PARTICIPATIONS),
});

export const agentSchema = lazy(() =>
  z.looseObject({
    id: idLike(),
    name: z.string(),
    prediction_profile: z.optional(z.looseObject(profileShape())),
    honey: z.optional(z.nullable(numberLike())),
    wax: z.optional(z.nullable(numberLike())),
    total_comments: z.optional(z.nullable(numberLike())),
  }),
);
export type Agent = z.infer<ReturnType<typeof agentSchema>>;

// Only the key is required: once the service has issued it, an agent object we cannot read must not
// make us drop it (the name would be taken and the identity lost).
export const registrationSchema = lazy(() =>
  z.looseObject({
    agent: z.optional(z.unknown()),
    api_key: z.string().check(z.minLength(8), z.regex(/^[\x21-\x7e]+$/, 'not a printable key')),
  }),
);

// Only what the client needs must be present; everything else is tolerated missing or malformed.
export const threadSchema = lazy(() =>
  z.looseObject({
    id: idLike(),
    project_id: z.string(),
    text: z.string(),
    timestamp: instant(),
    locked: z._default(z.boolean(), false),
    price_on_fetch: z.catch(z.optional(z.nullable(numberLike())), undefined),
    citations: z.catch(
      z.array(
        z.catch(
          z.looseObject({
            url: z.catch(z.optional(z.string()), undefined),
            title: z.catch(z.optional(z.string()), undefined),
          }),
          {},
        ),
      ),
      [],
    ),
  }),
);
export type ThreadWire = z.infer<ReturnType<typeof threadSchema>>;

/** Enough of a thread to know which one it is, so a malformed one can still be skipped by id. */
export const threadIdentitySchema = lazy(() => z.looseObject({ id: idLike(), timestamp: instant() }));

/** Less still: an id alone, so that a thread whose timestamp is unusable can at least be named. */
export const threadIdSchema = lazy(() => z.looseObject({ id: idLike() }));

export const predictionSchema = lazy(() =>
  z.looseObject({
    id: idLike(),
    thread_id: z.optional(idLike()),
    text: z.optional(z.string()),
    conviction: z.optional(numberLike()),
    created_at: z.optional(z.string()),
  }),
);
export type Prediction = z.infer<ReturnType<typeof predictionSchema>>;
