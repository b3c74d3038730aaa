import type { Context } from '../context.js';
import { openSession } from '../session.js';
import { PROFILE_FLAG_NAMES, type ProfileFlags } from '../domain/inputs.js';
import type { Profile } from '../domain/profile.js';
import { ConnectionSetupError, NotRegisteredError, TemporaryError } from '../errors.js';

const OFFLINE = 'give all four profile flags to backtest offline, without asking the service';

/**
 * The profile of the agent registered in the config dir, which a backtest measures by default (what its
 * polls would do), read with one `GET /agent/me`; undefined when no agent is registered there, or when the
 * four profile flags leave nothing for it to decide (then nothing is sent).
 */
export async function registeredProfile(flags: ProfileFlags, ctx: Context): Promise<Profile | undefined> {
  if ((Object.keys(PROFILE_FLAG_NAMES) as Array<keyof Profile>).every((field) => flags[field] !== undefined))
    return undefined;
  let session: ReturnType<typeof openSession>;
  try {
    session = openSession(ctx);
  } catch (error) {
    if (error instanceof NotRegisteredError) return undefined;
    throw error;
  }
  const spinner = await ctx.output.spinner("Reading the registered agent's profile…");
  try {
    return await session.api.profile();
  } catch (error) {
    // Said as what it is for: a backtest needs no service but for this.
    const message = `cannot read the registered agent's profile: ${(error as Error).message}`;
    if (error instanceof ConnectionSetupError) throw new ConnectionSetupError(message, { hint: OFFLINE, cause: error });
    if (error instanceof TemporaryError) throw new TemporaryError(message, { hint: OFFLINE, cause: error });
    throw error;
  } finally {
    spinner.stop();
  }
}
