import { KeyForms } from '../../domain/key-forms.js';
import type { Dispatcher } from 'undici';
import type { Profile } from '../../domain/profile.js';
import type { Thread } from '../../domain/thread.js';
import { AnalyzerError, UsageError } from '../../errors.js';
import { maskKey, oneLine } from '../../output/sanitize.js';
import { analyzerInput } from '../protocol.js';
import { signed } from '../text-clean.js';
import type { Analyzer, AnalyzerOutput, Trace } from '../types.js';
import { parseCompletion } from './answer.js';
import { chatEndpoint } from './endpoint.js';
import { createSender } from './exchange.js';
import { chatRequestBody } from './prompt.js';
import { pauseBefore, RetryableError } from './retry.js';
import { statusError } from './status.js';

export interface LlmOptions {
  /** The OpenAI-compatible API root, e.g. `http://127.0.0.1:11434/v1` or `https://api.openai.com/v1`. */
  baseUrl: string;
  model: string;
  /** Sent as `Authorization: Bearer <key>`; local servers need none. */
  apiKey?: string;
  /** For one request, connect to last byte; a timed-out request is tried once more. */
  timeoutMs: number;
  /** Default: undici's EnvHttpProxyAgent (HTTPS_PROXY, NO_PROXY), or a direct Agent for loopback. */
  dispatcher?: Dispatcher;
  /** The run's clock: durations in the trace and the pause before a retry. */
  timing: { now(): number; sleep(ms: number): Promise<void> };
  /** Epoch ms by which the run must be over (bounded): no request or retry runs past it. */
  deadline?: number;
  /** Answers larger than this are refused. Default 1 MiB. */
  maxBodyBytes?: number;
}

/**
 * An analyzer that asks a language model behind an OpenAI-compatible chat-completions API for a
 * complete decision. Its answer is validated here and then checked by the policy like any other.
 * Throws a UsageError at once for options that can never work (no model, a bad URL, a key over http).
 */
export function createLlmAnalyzer(options: LlmOptions): Analyzer {
  const apiKey = checkKey(options.apiKey);
  const model = options.model.trim();
  if (model === '')
    throw new UsageError('no LLM model is set', { hint: 'set llm.model (agent config) or AGENT_LLM_MODEL' });
  const endpoint = chatEndpoint(options.baseUrl, apiKey !== undefined);
  const who = `${oneLine(model, 80)} at ${endpoint.origin}`;
  const { timing } = options;
  // Servers echo keys in error messages ("Incorrect API key provided: sk-…"): masked before quoting.
  const forms = apiKey ? new KeyForms(apiKey) : undefined;
  const scrub = (text: string) => (apiKey && forms ? forms.mask(text, maskKey(apiKey)) : text);
  const sender = createSender({
    dispatcher: options.dispatcher,
    loopback: endpoint.loopback,
    maxBodyBytes: options.maxBodyBytes ?? 1024 * 1024,
    who,
  });
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  if (apiKey !== undefined) headers.authorization = `Bearer ${apiKey}`;

  async function ask(body: string, trace: Trace): Promise<AnalyzerOutput> {
    const left = options.deadline === undefined ? Number.POSITIVE_INFINITY : options.deadline - timing.now();
    if (left <= 0)
      throw new AnalyzerError(`no time left in this run to ask ${who}`, {
        hint: 'the thread stays due for the next run',
      });
    const started = timing.now();
    const exchange = await sender.post(endpoint.url, headers, body, Math.min(options.timeoutMs, left));
    const asked = `llm: asked ${who} (${Math.round(timing.now() - started)} ms`;
    if (exchange.status < 200 || exchange.status >= 300) {
      trace.push(`${asked}): HTTP ${exchange.status}`);
      throw statusError(exchange, { who, url: endpoint.url, scrub, now: timing.now() });
    }
    let parsed: ReturnType<typeof parseCompletion>;
    try {
      parsed = parseCompletion(exchange.body, String(exchange.headers['content-type'] ?? ''), who, scrub);
    } catch (error) {
      trace.push(`${asked})`);
      throw error;
    }
    trace.push(`${asked}${parsed.tokens === undefined ? '' : `, ${parsed.tokens} tokens`})`);
    const { output } = parsed;
    trace.push(
      output.action === 'post'
        ? `llm: answered post ${signed(output.conviction, 1)}`
        : `llm: answered skip: ${oneLine(output.reason, 200)}`,
    );
    return output;
  }

  async function analyze(thread: Thread, profile: Profile, trace: Trace): Promise<AnalyzerOutput> {
    // Built from analyzerInput only: whatever else the Thread object carries never reaches the model.
    const body = JSON.stringify(chatRequestBody(model, analyzerInput(thread, profile)));
    try {
      return await ask(body, trace);
    } catch (error) {
      if (!(error instanceof RetryableError)) throw error;
      const pause = pauseBefore(error);
      if ('refuse' in pause)
        throw new AnalyzerError(`${error.message}; ${pause.refuse}, not waited out`, {
          hint: error.hint,
          cause: error,
        });
      if (options.deadline !== undefined && timing.now() + pause.ms >= options.deadline) {
        throw new AnalyzerError(`${error.message}; no time left in this run to try again`, {
          hint: error.hint,
          cause: error,
        });
      }
      trace.push(`llm: retrying after ${error.why}, in ${pause.ms / 1000} s`);
      await timing.sleep(pause.ms);
    }
    try {
      return await ask(body, trace);
    } catch (error) {
      // The cause says what kind of failure it was (a backtest stops at a server it cannot reach).
      if (error instanceof RetryableError)
        throw new AnalyzerError(`${error.message} (tried twice)`, { hint: error.hint, cause: error });
      throw error;
    }
  }

  return { name: 'llm', analyze, close: () => sender.close() };
}

/** A key as a header can carry it; a trailing newline from a key file is not part of it. */
function checkKey(raw: string | undefined): string | undefined {
  const key = raw?.trim();
  if (!key) return undefined;
  if (!/^[\x21-\x7e]+$/.test(key)) {
    throw new UsageError('the LLM API key contains spaces or characters that cannot be sent in a header', {
      hint: 'check AGENT_LLM_API_KEY or the file named by llm.key-file',
    });
  }
  return key;
}
