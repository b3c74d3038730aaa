import { UsageError } from '../errors.js';
import { isLoopbackHost } from '../http/origin.js';
import { trimEndOf } from '../domain/trim-end.js';

/**
 * The address of an OpenAI-compatible API. Plain http is fine for a local model; a key is never sent
 * over it to another host (checked where the key is known: `checkKeyTransport`).
 */
export function parseLlmBaseUrl(raw: string, source = 'llm.base-url'): URL {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    // Not echoed: what was pasted where a URL belongs may be the key.
    throw new UsageError(`${source} is not a URL`, {
      hint: 'e.g. http://127.0.0.1:11434/v1 or https://api.openai.com/v1',
    });
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new UsageError(`${source} must be http(s), not ${url.protocol}`);
  if (url.username || url.password || url.search || url.hash) {
    throw new UsageError(`${source} must not contain credentials, a query or a fragment`, {
      hint: 'give the key with AGENT_LLM_API_KEY or llm.key-file',
    });
  }
  url.pathname = trimEndOf(url.pathname, /\//);
  return url;
}

export function checkKeyTransport(url: URL): void {
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    throw new UsageError(
      `refusing to send the LLM key over plain http to ${url.host}: anyone on the way could read it`,
      {
        hint: 'use https, or a local server without a key',
      },
    );
  }
}
