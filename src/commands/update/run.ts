import type { Context } from '../../context.js';
import { openSession } from '../../session.js';
import type { Profile } from '../../domain/profile.js';
import { ResponseError, UsageError } from '../../errors.js';
import type { AgentPatch } from '../../service/api.js';
import { describeAgent } from '../describe-agent.js';
import { checkBio, failOn, profileFromFlags } from '../../domain/inputs.js';
import { profileFlags, type ProfileOptions } from '../wiring.js';

/** The flags as commander gives them; checked here. */
export interface UpdateOptions extends ProfileOptions {
  bio?: string;
}

export async function runUpdate(ctx: Context, flags: UpdateOptions): Promise<void> {
  const options = { ...profileFlags(flags), bio: flags.bio };
  failOn([options.bio === undefined ? undefined : checkBio(options.bio)]);
  const changes = profileFromFlags(options);
  if (options.bio === undefined && Object.keys(changes).length === 0) {
    throw new UsageError('nothing to update', { hint: 'give --bio or a profile flag; the name cannot be changed' });
  }
  const session = openSession(ctx);
  const { api } = session;
  const spinner = await ctx.output.spinner('Updating the agent…');
  try {
    const patch: AgentPatch = {};
    if (options.bio !== undefined) patch.bio = options.bio;
    if (Object.keys(changes).length) {
      // The service takes the profile as a whole object: start from the current one (docs/cli.md), unless
      // every field is given.
      const current = isComplete(changes) ? {} : (await api.me()).prediction_profile;
      const merged = { ...current, ...changes };
      if (!isComplete(merged)) {
        throw new ResponseError('the service did not return the current prediction profile, so it cannot be merged', {
          hint: 'give all four profile flags to replace it whole',
        });
      }
      patch.prediction_profile = pickProfile(merged);
    }
    const updated = (await api.updateMe(patch)) ?? (await api.me());
    ctx.output.result(['Updated.', ...describeAgent(updated)], updated);
  } finally {
    spinner.stop();
  }
}

function isComplete(profile: Partial<Profile>): profile is Profile {
  return Boolean(
    profile.signal_method && profile.conviction_style && profile.directional_bias && profile.participation,
  );
}

// Only the four fields of the interface are sent, whatever else the service added to the object.
function pickProfile(profile: Profile): Profile {
  const { signal_method, conviction_style, directional_bias, participation } = profile;
  return { signal_method, conviction_style, directional_bias, participation };
}
