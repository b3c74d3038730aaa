import { checkAsCronRunsIt } from '../../analysis/command/check.js';
import type { Context } from '../../context.js';
import { PROBE_TIMEOUT_MS } from '../../domain/budget.js';
import { messageOf } from '../../errors.js';
import { oneLine } from '../../output/sanitize.js';
import { readKeyFile } from '../../settings/key-file.js';
import { resolveAnalyzerConfig } from '../../settings/resolve.js';
import { readSettings } from '../../settings/settings-file.js';
import { fail, failedCheck, ok, type Verdict, warn } from './check.js';

/** The analyzer cron will use: the configured one resolves, its program is there, its model server answers. */
export async function analyzerCheck(ctx: Context): Promise<Verdict> {
  let config: ReturnType<typeof resolveAnalyzerConfig>;
  try {
    config = resolveAnalyzerConfig(readSettings(ctx.configDir), undefined, { env: ctx.env, readKeyFile });
  } catch (error) {
    return failedCheck(error);
  }
  if (config.kind === 'builtin') return ok('the built-in one');
  if (config.kind === 'command') {
    const command = `the command ${oneLine(config.command, 100)}`;
    let doubts: string[];
    try {
      // As cron will run it: from the home directory, not from wherever doctor was started.
      doubts = checkAsCronRunsIt(config.command, ctx.env.HOME ?? '/');
    } catch (error) {
      return failedCheck(error, `${command}: `);
    }
    const [doubt] = doubts;
    if (doubt) return warn(`${command}: ${doubt}`);
    return ok(`${command}, whose files are there where cron runs it`);
  }
  // Any answer at all, even a 401 or a 404, shows a server there; no key is sent.
  const url = new URL(`${config.llm.baseUrl.href.replace(/\/$/, '')}/models`);
  try {
    const answer = await ctx.transport().send({
      method: 'GET',
      url,
      headers: { accept: 'application/json' },
      timeoutMs: PROBE_TIMEOUT_MS,
      maxBodyBytes: 1024 * 1024,
    });
    return ok(`the model ${config.llm.model} at ${config.llm.baseUrl.origin}, which answers (${answer.status})`);
  } catch (error) {
    return fail(
      `the model server at ${config.llm.baseUrl.origin} does not answer (${oneLine(messageOf(error), 120)})`,
      'start it, or agent config set analyzer builtin',
    );
  }
}
