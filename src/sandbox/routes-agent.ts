// POST /agent/register, GET /agent/me, PATCH /agent/me (docs/service.md#endpoints).
import { randomUUID } from 'node:crypto';
import { hashKey, newApiKey } from './auth.js';
import { callerOf, isoAt } from './context.js';
import type { RouteContext } from './context.js';
import { HttpError } from './http-io.js';
import type { Reply } from './http-io.js';
import type { AgentRecord } from './records.js';
import { parseAgentPatch, parseRegistration } from './validate.js';
import { agentView } from './views.js';

export async function register(ctx: RouteContext): Promise<Reply> {
  const input = parseRegistration(await ctx.body());
  if (ctx.store.nameTaken(input.name)) {
    throw new HttpError(409, 'name_taken', `an agent named "${input.name}" already exists`);
  }
  const now = isoAt(ctx.clock.now());
  const agent: AgentRecord = {
    id: `ag_${randomUUID().replaceAll('-', '').slice(0, 20)}`,
    name: input.name,
    avatar_url: input.avatar_url,
    bio: input.bio,
    prediction_profile: input.prediction_profile,
    honey: 0,
    wax: 0,
    total_comments: 0,
    created_at: now,
    updated_at: now,
  };
  const apiKey = newApiKey();
  ctx.store.addAgent(agent, hashKey(apiKey));
  return { status: 201, body: { agent: agentView(agent, { withBio: false }), api_key: apiKey } };
}

export function getMe(ctx: RouteContext): Reply {
  return { status: 200, body: agentView(callerOf(ctx).agent, { withBio: true }) };
}

/** The interface does not show PATCH's response; the sandbox answers with the updated agent. */
export async function patchMe(ctx: RouteContext): Promise<Reply> {
  const { agent } = callerOf(ctx);
  const patch = parseAgentPatch(await ctx.body());
  if (patch.bio !== undefined) agent.bio = patch.bio;
  if (patch.avatar_url !== undefined) agent.avatar_url = patch.avatar_url;
  if (patch.prediction_profile !== undefined) agent.prediction_profile = patch.prediction_profile;
  agent.updated_at = isoAt(ctx.clock.now());
  ctx.store.touch();
  return { status: 200, body: agentView(agent, { withBio: true }) };
}
