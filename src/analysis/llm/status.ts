import { AnalyzerConfigError, AnalyzerError } from '../../errors.js';
import { errorBodyText } from '../../http/error-body.js';
import type { Exchange } from './exchange.js';
import { retryAfterMs } from '../../http/pause.js';
import { RetryableError } from './retry.js';

/**
 * The error for an answer that is not 2xx. Only a 408, 429 or 5xx is worth one more try: any other
 * 4xx says our request or key is wrong, and asking again (now, or for the next thread) would only say
 * so again. A redirect is never
 * followed, so the key cannot be carried to another address.
 */
export interface StatusContext {
  /** Names the model and server in messages. */
  who: string;
  /** Where the request went: a relative Location is read against it. */
  url: URL;
  /** Removes the key from any server text quoted. */
  scrub: (text: string) => string;
  now: number;
}

export function statusError(exchange: Exchange, context: StatusContext): AnalyzerError | AnalyzerConfigError {
  const { status, headers } = exchange;
  const { who, scrub, now } = context;
  const said = errorBodyText(scrub(exchange.body), header(headers['content-type']));
  const suffix = said ? `: ${said}` : '';
  if (status >= 300 && status < 400) {
    return new AnalyzerError(
      `${who} answered ${status}, a redirect to ${where(header(headers.location), context.url)}; not followed, the key stays here`,
      {
        hint: 'set the LLM base URL to the address the API really has',
      },
    );
  }
  if (status === 408 || status === 429 || status >= 500) {
    const why = status === 429 ? 'HTTP 429 (rate limited)' : `HTTP ${status}`;
    return new RetryableError(`${who} failed (${status})${suffix}`, why, retryAfterMs(headers['retry-after'], now), {
      hint: status === 429 ? 'the provider limits requests; a later run asks again' : 'a later run asks again',
    });
  }
  // Any other 4xx says the same for every thread, run after run: the configuration has to change.
  if (status === 401 || status === 403) {
    return new AnalyzerConfigError(`${who} refused the model's API key (${status})${suffix}`, {
      hint: `this is the model's key, not the service's: check the file named by llm.key-file, or AGENT_LLM_API_KEY; ${MEANWHILE}`,
    });
  }
  if (status === 404) {
    return new AnalyzerConfigError(`${who} has no such model or address (404)${suffix}`, {
      hint: `check llm.model and llm.base-url (it usually ends in /v1); ${MEANWHILE}`,
    });
  }
  return new AnalyzerConfigError(`${who} refused the request (${status})${suffix}`, {
    hint: `a refusal it will repeat: the server may not support structured outputs (response_format json_schema) for this model; choose another model (agent config set llm.model <name>), ${MEANWHILE}`,
  });
}

const MEANWHILE = 'or let the built-in analyzer decide meanwhile: agent config set analyzer.fallback builtin';

function header(value: string | string[] | undefined): string {
  return (Array.isArray(value) ? value[0] : value) ?? '';
}

/** Only the origin of a Location: a path can carry tokens, and the origin is what the user must judge. */
function where(location: string, base: URL): string {
  try {
    return location ? new URL(location, base).origin : 'another address';
  } catch {
    return 'another address';
  }
}
