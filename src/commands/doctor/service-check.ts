import type { Context } from '../../context.js';
import { doctorDeadline } from '../../domain/budget.js';
import { AuthError, RateLimitedError } from '../../errors.js';
import { pausedUntil } from '../../http/pause.js';
import { agentCommand } from '../../output/command-hint.js';
import { openSession } from '../../session.js';
import type { State } from '../../state/schema.js';
import { fail, failedCheck, ok, type Verdict, warn } from './check.js';

/** The local clock may be this far from the service's before it says so: timestamps compare across them. */
const CLOCK_SKEW_MS = 60_000;

export interface ServiceFound {
  verdict: Verdict;
  /** Whether the service answered GET /agent/me, and the Date header it answered with, if any. */
  answered: boolean;
  date?: { local: number; service: number } | undefined;
}

/**
 * GET /agent/me: the address answers, the key is accepted; its Date header tells this machine's clock.
 * The only request doctor sends to the service, and none without a state or inside a stored pause.
 */
export async function askService(ctx: Context, state: State | undefined, now: number): Promise<ServiceFound> {
  if (!state)
    return { verdict: warn('not checked: there is no usable state to take the address and key from'), answered: false };
  // The service asked for a pause: even one GET inside it would be impolite (and refused).
  if (pausedUntil(state, now) !== undefined)
    return {
      verdict: warn(`not checked: the service asked for a pause until ${state.rateLimitedUntil}`),
      answered: false,
    };
  try {
    // Not a dry run: a 429 on this request is stored like any other (polite), so the next cron poll waits.
    const session = openSession(ctx, { deadline: doctorDeadline(ctx.timing.now()) });
    const me = await session.api.me();
    return {
      verdict: ok(
        `${state.baseUrl} answers and accepts the key (agent ${me.name}, ${me.total_comments ?? 0} predictions)`,
      ),
      answered: true,
      date: session.http.lastDate,
    };
  } catch (error) {
    if (error instanceof AuthError) {
      return {
        verdict: fail(
          `${state.baseUrl} rejected the key (401)`,
          `${agentCommand(ctx, 'register --force')} (the old state is kept as a backup)`,
        ),
        answered: false,
      };
    }
    if (error instanceof RateLimitedError)
      return { verdict: warn(`${state.baseUrl} answers, but ${error.message}`), answered: false };
    return { verdict: failedCheck(error), answered: false };
  }
}

/** This machine's clock against the Date header of the service's answer; nothing to say without one. */
export function clockCheck({ answered, date }: ServiceFound): Verdict | undefined {
  if (!answered) return undefined;
  if (!date) return warn('the service sent no Date header to compare this clock with');
  const skew = date.local - date.service;
  const seconds = Math.round(Math.abs(skew) / 1000);
  return Math.abs(skew) <= CLOCK_SKEW_MS
    ? ok(`within ${Math.max(1, seconds)} s of the service's`)
    : warn(
        `this machine's clock is ${seconds} s ${skew > 0 ? 'ahead of' : 'behind'} the service's`,
        'turn on time synchronisation (e.g. timedatectl set-ntp true)',
      );
}
