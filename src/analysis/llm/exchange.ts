import type { Dispatcher } from 'undici';
import { AnalyzerError, messageOf } from '../../errors.js';
import { RetryableError, UnreachableError } from './retry.js';

export interface Exchange {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The body as text; empty for a redirect, which is never read. */
  body: string;
}

export interface Sender {
  post(url: URL, headers: Record<string, string>, body: string, timeoutMs: number): Promise<Exchange>;
  /** Closes the dispatcher this sender created (a given one belongs to its owner). */
  close(): Promise<void>;
}

export interface SenderOptions {
  dispatcher?: Dispatcher;
  /** A loopback server is reached directly: a proxy could not reach our loopback anyway. */
  loopback: boolean;
  maxBodyBytes: number;
  /** Names the model and server in messages. */
  who: string;
}

const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT']);

/**
 * undici's request(), loaded on the first call: importing it costs ~110 ms that a run without an LLM
 * call must not pay (docs/performance.md). It never follows redirects on its own (undici 7 does so only with
 * the redirect interceptor), and its default dispatcher is one that honours HTTPS_PROXY and NO_PROXY.
 */
export function createSender(options: SenderOptions): Sender {
  let loaded: Promise<{ request: typeof import('undici').request; dispatcher: Dispatcher }> | undefined;
  let created: Dispatcher | undefined;

  const load = () =>
    (loaded ??= import('undici').then((undici) => {
      if (options.dispatcher) return { request: undici.request, dispatcher: options.dispatcher };
      created = options.loopback ? new undici.Agent() : new undici.EnvHttpProxyAgent();
      return { request: undici.request, dispatcher: created };
    }));

  async function post(url: URL, headers: Record<string, string>, body: string, timeoutMs: number): Promise<Exchange> {
    const { request, dispatcher } = await load();
    // One deadline for the whole exchange: undici's own timeouts are per phase and restart on every
    // chunk, so a server that trickles bytes would never time out with them alone.
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    try {
      const response = await request(url, {
        method: 'POST',
        headers,
        body,
        dispatcher,
        signal: controller.signal,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      });
      const status = response.statusCode;
      if (status >= 300 && status < 400) {
        // Discarded, not read: undici holds the connection until every body is consumed or dropped.
        await response.body.dump();
        return { status, headers: response.headers, body: '' };
      }
      return {
        status,
        headers: response.headers,
        body: await readCapped(response.body, options.maxBodyBytes, options.who),
      };
    } catch (error) {
      if (error instanceof AnalyzerError) throw error;
      const code = (error as { code?: unknown }).code;
      if (timedOut || (typeof code === 'string' && TIMEOUT_CODES.has(code))) {
        throw new RetryableError(
          `${options.who} gave no complete answer within ${timeoutMs / 1000} s`,
          'a timeout',
          undefined,
          {
            hint: 'a slow model may need a longer analyzer.timeout',
          },
        );
      }
      const what = describe(error);
      throw new UnreachableError(`cannot reach ${options.who} (${what})`, `a network error (${what})`, undefined, {
        hint: 'is the server running, and is the base URL right?',
      });
    } finally {
      clearTimeout(timer);
    }
  }

  return {
    post,
    async close() {
      // A first call still loading undici would create its dispatcher after this: wait for it.
      await loaded?.catch(() => undefined);
      const dispatcher = created;
      created = undefined;
      await dispatcher?.close();
    },
  };
}

async function readCapped(body: Dispatcher.ResponseData['body'], max: number, who: string): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += (chunk as Buffer).length;
    if (size > max) {
      body.destroy();
      throw new AnalyzerError(`${who} sent more than ${Math.round(max / 1024)} KiB; refused`);
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * A network error in a few words: its code when it has one. undici's messages can quote a proxy URL
 * from HTTPS_PROXY, credentials included, so a message is shown only with any `user:pass@` removed.
 */
function describe(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  const cause = (error as { cause?: { code?: unknown } }).cause?.code;
  if (typeof cause === 'string' && cause.startsWith('E')) return cause;
  if (typeof code === 'string' && code !== '') return code;
  const message = messageOf(error);
  return message
    .replace(/\/\/[^/@\s]*@/g, '//…@')
    .replace(/\s+/g, ' ')
    .slice(0, 160);
}
