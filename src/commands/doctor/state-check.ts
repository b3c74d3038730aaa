import { lstatSync } from 'node:fs';
import path from 'node:path';
import type { Context } from '../../context.js';
import { maskKnownKeys } from '../../history/mask.js';
import { agentCommand } from '../../output/command-hint.js';
import { stateStore } from '../../session.js';
import type { State } from '../../state/schema.js';
import { failedCheck, fail, ok, type Verdict } from './check.js';

export interface StateFound {
  verdict: Verdict;
  /** The state, when there is one that can be used. */
  state?: State;
}

/** The config dir and its state: present, private, owned by whoever runs this, and readable. */
export function findState(ctx: Context): StateFound {
  try {
    const state = stateStore(ctx).read();
    if (!state) {
      return {
        verdict: fail(
          `no agent is registered in ${ctx.configDir}`,
          `${agentCommand(ctx, 'register')} (or --agent or --config-dir naming the dir you registered in)`,
        ),
      };
    }
    // The last poll's error comes from the history, which an older version may have written the key into.
    maskKnownKeys(ctx);
    return {
      verdict: ok(
        `agent ${state.agentName} in ${stateStore(ctx).file} (mode 600), cursor ${state.cursor ? state.cursor.timestamp : 'not set yet'}`,
      ),
      state,
    };
  } catch (error) {
    return { verdict: failedCheck(error) };
  }
}

/** The pause stored in the state now: a 429 met by the service check is stored there, as by any command. */
export function storedPause(ctx: Context): string | undefined {
  try {
    return stateStore(ctx).read()?.rateLimitedUntil;
  } catch {
    return undefined; // the state check has said what is wrong with it
  }
}

/** Something stands where the state belongs (an agent, or a state the state check says is broken). */
export function holdsState(configDir: string): boolean {
  try {
    lstatSync(path.join(configDir, 'state.json'));
    return true;
  } catch {
    return false;
  }
}
