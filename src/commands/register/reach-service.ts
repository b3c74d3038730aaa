import type { Context } from '../../context.js';
import { ConnectionSetupError, NetworkError, ResponseError, TimeoutError, type AgentError } from '../../errors.js';
import { PROBE_TIMEOUT_MS } from '../../domain/budget.js';
import { baseUrlText } from '../../http/origin.js';

/**
 * Whether anything answers as a web service at the address, checked with one `GET /agent/me` without a key:
 * it changes nothing, and the service answers it 401 (docs/service.md#agent-me). Any answer at all will do;
 * the error when none comes (nothing listening, plain http behind https, a name that does not resolve, a
 * certificate not trusted here, no answer in time), so that `register` can ask again before the other
 * questions rather than fail after all of them.
 */
export async function unreachable(baseUrl: URL, ctx: Context): Promise<AgentError | undefined> {
  const spinner = await ctx.output.spinner(`Reaching ${baseUrl.host}…`);
  try {
    await ctx.transport().send({
      method: 'GET',
      url: new URL(`${baseUrlText(baseUrl)}/agent/me`),
      headers: { accept: 'application/json' },
      timeoutMs: Math.min(PROBE_TIMEOUT_MS, ctx.requestTimeoutMs ?? PROBE_TIMEOUT_MS),
      maxBodyBytes: 64 * 1024,
    });
    return undefined;
  } catch (error) {
    if (error instanceof NetworkError || error instanceof TimeoutError || error instanceof ConnectionSetupError)
      return error;
    // An answer too large to read is still an answer.
    if (error instanceof ResponseError) return undefined;
    throw error;
  } finally {
    spinner.stop();
  }
}
