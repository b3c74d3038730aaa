import type { Context } from '../../context.js';
import { openSession } from '../../session.js';
import { maskKey, shownPath } from '../../output/sanitize.js';
import { describeAgent } from '../describe-agent.js';

export async function runMe(ctx: Context): Promise<void> {
  const session = openSession(ctx);
  const { api, state, store, baseUrl } = session;
  const spinner = await ctx.output.spinner('Fetching the agent…');
  const agent = await api.me().finally(() => spinner.stop());
  ctx.output.result(
    [
      ...describeAgent(agent),
      `  service:    ${baseUrl.origin}`,
      `  key:        ${maskKey(state.apiKey)} in ${shownPath(store.file)}`,
    ],
    agent,
  );
}
