import { UsageError } from '../../errors.js';
import { isLoopbackHost } from '../../http/origin.js';
import { trimEndOf } from '../../domain/trim-end.js';

export interface Endpoint {
  /** Where the request goes: the base URL with `/chat/completions` appended, any path prefix kept. */
  url: URL;
  /** For traces and messages: scheme, host and port only, never a path or a credential. */
  origin: string;
  loopback: boolean;
}

const SUFFIX = '/chat/completions';

/**
 * The chat-completions address from a base URL such as `http://127.0.0.1:11434/v1` or
 * `https://openrouter.ai/api/v1`. A base URL that already ends in `/chat/completions` is taken as is,
 * because that is what people copy from a server's docs.
 *
 * Plain http is fine for a local or LAN server with no key (Ollama on the next machine); a key is sent
 * over plain http only to loopback, where no other host can read it.
 */
export function chatEndpoint(raw: string, hasKey: boolean): Endpoint {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new UsageError(`the LLM base URL is not a URL: ${JSON.stringify(raw.slice(0, 200))}`, {
      hint: 'e.g. http://127.0.0.1:11434/v1 (Ollama) or https://api.openai.com/v1',
    });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(`the LLM base URL must be http(s), not ${url.protocol}`);
  }
  // Credentials in the URL would end up in traces and proxies' logs; the key has its own variable.
  if (url.username || url.password || url.search || url.hash) {
    throw new UsageError('the LLM base URL must not contain credentials, a query or a fragment', {
      hint: 'pass the key in AGENT_LLM_API_KEY or llm.key-file',
    });
  }
  const loopback = isLoopbackHost(url.hostname);
  if (hasKey && url.protocol === 'http:' && !loopback) {
    throw new UsageError(`refusing to send the LLM API key over plain http to ${url.host}`, {
      hint: 'use https, or no key for a local server that needs none',
    });
  }
  const path = trimEndOf(url.pathname, /\//);
  url.pathname = path.endsWith(SUFFIX) ? path : `${path}${SUFFIX}`;
  return { url, origin: url.origin, loopback };
}
