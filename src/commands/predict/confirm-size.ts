import { sigmaOf, sizeCap } from '../../analysis/profile-numbers.js';
import type { Context } from '../../context.js';
import type { Thread } from '../../domain/thread.js';
import { UsageError } from '../../errors.js';
import { oneLine } from '../../output/sanitize.js';
import type { ServiceApi } from '../../service/api.js';

/**
 * A post cannot be undone, so a size beyond the largest the agent's own profile would post on this cell is
 * confirmed: asked at a terminal, or given as --yes; anywhere else (cron, a pipe, --json) it is refused.
 * Returns the question to ask, or undefined when there is none.
 */
export async function sizeQuestion(
  conviction: number,
  thread: Thread,
  api: ServiceApi,
  yes: boolean,
  ctx: Context,
): Promise<string | undefined> {
  if (yes) return undefined;
  const profile = await api.profile();
  const cap = sizeCap(profile.conviction_style, sigmaOf(thread.cell));
  if (Math.abs(conviction) <= cap) return undefined;
  const what = `${conviction > 0 ? '+' : ''}${conviction.toFixed(1)}% on ${oneLine(thread.projectId, 60)} is beyond the largest size your profile (${profile.conviction_style}) posts there, ±${cap.toFixed(1)}%`;
  if (!ctx.prompt?.available()) throw new UsageError(what, { hint: 'add --yes to post it anyway; nothing was sent' });
  return `${what}. Post it anyway? [y/N] `;
}

/** Asks the question; anything but yes is a refusal. */
export async function confirmSize(question: string, ctx: Context): Promise<void> {
  const answer = (await ctx.prompt?.ask(question)) ?? '';
  if (!/^y(es)?$/i.test(answer.trim()))
    throw new UsageError('not posted: the size was not confirmed', { hint: 'nothing was sent' });
}
