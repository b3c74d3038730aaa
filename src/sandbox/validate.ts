// Request-body rules of docs/service.md#endpoints, as the sandbox enforces them. Each failure is a 400 whose
// message names the field, so that a client's own validation can be compared with it.
import { LIMITS, PROFILE_FIELDS } from '../domain/profile.js';
import type { Profile } from '../domain/profile.js';
import { HttpError } from './http-io.js';

/** Not in the interface: a sanity bound so that a runaway client is caught, far above any real 3-hour move. */
export const MAX_ABS_CONVICTION = 1000;
const MAX_URL_LENGTH = 2048;
const READ_ONLY_AGENT_FIELDS = ['id', 'honey', 'wax', 'total_comments', 'created_at', 'updated_at'] as const;

export interface Registration {
  name: string;
  avatar_url: string | null;
  bio: string | null;
  prediction_profile: Profile;
}

export interface AgentPatch {
  bio?: string | null;
  avatar_url?: string | null;
  prediction_profile?: Profile;
}

export interface PredictionInput {
  text: string;
  conviction: number;
}

const invalid = (message: string) => new HttpError(400, 'validation_error', message);
const codePoints = (text: string) => [...text].length;

export function parseRegistration(body: Record<string, unknown>): Registration {
  const { name } = body;
  if (typeof name !== 'string') throw invalid('name is required and must be a string');
  if (name.trim() === '' || codePoints(name) < LIMITS.nameMin || name.length > LIMITS.nameMax) {
    throw invalid(`name must be ${LIMITS.nameMin}-${LIMITS.nameMax} characters`);
  }
  if (body.prediction_profile === undefined) throw invalid('prediction_profile is required');
  return {
    name,
    avatar_url: parseAvatarUrl(body.avatar_url),
    bio: parseBio(body.bio),
    prediction_profile: parseProfile(body.prediction_profile),
  };
}

export function parseAgentPatch(body: Record<string, unknown>): AgentPatch {
  if ('name' in body) throw invalid('name cannot be changed');
  for (const field of READ_ONLY_AGENT_FIELDS) if (field in body) throw invalid(`${field} cannot be changed`);
  const patch: AgentPatch = {};
  if ('bio' in body) patch.bio = parseBio(body.bio);
  if ('avatar_url' in body) patch.avatar_url = parseAvatarUrl(body.avatar_url);
  if ('prediction_profile' in body) patch.prediction_profile = parseProfile(body.prediction_profile);
  return patch;
}

export function parsePrediction(body: Record<string, unknown>, pathThreadId: string): PredictionInput {
  const { text, thread_id: threadId, conviction } = body;
  if (typeof text !== 'string') throw invalid('text is required and must be a string');
  // Both ways of counting must agree with the limit: UTF-16 units (JavaScript) and code points.
  if (codePoints(text) < LIMITS.textMin || text.length > LIMITS.textMax) {
    throw invalid(`text must be ${LIMITS.textMin}-${LIMITS.textMax} characters`);
  }
  if (typeof threadId !== 'string') throw invalid('thread_id is required and must be a string');
  if (threadId !== pathThreadId) throw invalid('thread_id must equal the thread id in the path');
  if (typeof conviction !== 'number' || !Number.isFinite(conviction)) {
    throw invalid('conviction is required and must be a finite number');
  }
  if (Number(conviction.toFixed(1)) !== conviction) throw invalid('conviction must have at most one decimal place');
  if (Math.abs(conviction) > MAX_ABS_CONVICTION) throw invalid(`conviction must be within ±${MAX_ABS_CONVICTION}`);
  return { text, conviction };
}

function parseBio(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') throw invalid('bio must be a string');
  if (value.length > LIMITS.bioMax) throw invalid(`bio must be at most ${LIMITS.bioMax} characters`);
  return value;
}

function parseAvatarUrl(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') throw invalid('avatar_url must be a string');
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalid('avatar_url must be an absolute http(s) URL');
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || value.length > MAX_URL_LENGTH) {
    throw invalid('avatar_url must be an absolute http(s) URL');
  }
  return value;
}

function parseProfile(value: unknown): Profile {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw invalid(
      'prediction_profile must be an object with signal_method, conviction_style, directional_bias and participation',
    );
  }
  const given = value as Record<string, unknown>;
  const profile: Record<string, string> = {};
  for (const [field, allowed] of Object.entries(PROFILE_FIELDS)) {
    const choice = given[field];
    if (typeof choice !== 'string' || !(allowed as readonly string[]).includes(choice)) {
      throw invalid(`prediction_profile.${field} must be one of: ${allowed.join(', ')}`);
    }
    profile[field] = choice;
  }
  return profile as unknown as Profile;
}
