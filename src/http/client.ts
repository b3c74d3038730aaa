import type { Timing } from '../domain/clock.js';
import { maySend, REQUEST_TIMEOUT_MS } from '../domain/budget.js';
import { KeyForms } from '../domain/key-forms.js';
import { holdsKey } from '../domain/probe.js';
import {
  AuthError,
  BudgetError,
  NetworkError,
  RateLimitedError,
  RedirectError,
  RejectedError,
  ResponseError,
  ServerError,
  TemporaryError,
  TimeoutError,
  UsageError,
  type AgentError,
} from '../errors.js';
import { maskKey } from '../output/sanitize.js';
import { MAX_JSON_DEPTH, parseBoundedJson } from './bounded-json.js';
import { errorBodyText } from './error-body.js';
import { baseUrlText, pathSegment } from './origin.js';
import { EARLIER_PAUSE, pauseAfter429, waitOut as waitOutPause } from './pause.js';
import type { HttpResponse, Transport } from './transport.js';

export interface HttpClientOptions {
  baseUrl: URL;
  /** Sent only with requests built from baseUrl; absent for registration. */
  apiKey?: string;
  transport: Transport;
  timing: Timing;
  timeoutMs?: number;
  maxBodyBytes?: number;
  /** Epoch ms by which the whole run must be over (bounded); waits and retries never go past it. */
  deadline?: number;
  /** No request before this epoch ms (a 429 remembered from an earlier run: polite). */
  pauseEnds?: number;
  /** Told before a wait for a rate limit, so a person at a terminal knows why nothing happens. */
  onWait?: (ms: number, why: string) => void;
  /** Told of every pause a 429 asks for, as it arrives, so it can be stored before it is waited out. */
  onRateLimited?: (until: number) => void;
  /** Whether a 429 may be waited out inside this run (else it is thrown at once). */
  waitOnRateLimit?: boolean;
  /** Ends a wait (a 429's pause, a retry's delay) at once; nothing is sent after it. */
  signal?: AbortSignal | undefined;
}

export interface CallOptions {
  method: 'GET' | 'POST' | 'PATCH';
  /** Path segments, each encoded as exactly one segment. */
  path: string[];
  query?: Record<string, string | number | undefined>;
  body?: unknown;
}

export interface HttpClient {
  call(options: CallOptions): Promise<{ status: number; json: unknown; text: string }>;
  /** The earliest time the service may be asked again after a 429, if one was met. */
  readonly pauseEnds: number | undefined;
  /** The service's clock (its Date header, epoch ms) as of the last answer, and the local time then. */
  readonly lastDate: { service: number; local: number } | undefined;
}

const GET_RETRIES = 2;
const RETRY_BASE_MS = 400;

export function createHttpClient(options: HttpClientOptions): HttpClient {
  const { transport, timing } = options;
  const timeoutMs = options.timeoutMs ?? REQUEST_TIMEOUT_MS;
  const maxBodyBytes = options.maxBodyBytes ?? 8 * 1024 * 1024;
  let pauseEnds = options.pauseEnds;
  const base = baseUrlText(options.baseUrl);

  function buildUrl({ path, query }: CallOptions): URL {
    const url = new URL(`${base}/${path.map(pathSegment).join('/')}`);
    for (const [name, value] of Object.entries(query ?? {})) {
      if (value !== undefined) url.searchParams.set(name, String(value));
    }
    return url;
  }

  function remaining(): number {
    return options.deadline === undefined ? Number.POSITIVE_INFINITY : options.deadline - timing.now();
  }

  function waitOut(until: number, why: string): Promise<void> {
    return waitOutPause(until, why, {
      clock: timing,
      left: remaining(),
      wait: options.waitOnRateLimit,
      onWait: options.onWait,
      signal: options.signal,
    });
  }

  async function sendOnce(call: CallOptions): Promise<HttpResponse> {
    const url = buildUrl(call);
    const headers: Record<string, string> = { accept: 'application/json' };
    // The key goes only to the origin it was issued for (key-origin-only); the URL is always built from base, and this
    // check keeps it that way if that ever changes.
    if (options.apiKey !== undefined && url.origin === options.baseUrl.origin) headers['x-api-key'] = options.apiKey;
    let body: string | undefined;
    if (call.body !== undefined) {
      body = JSON.stringify(call.body);
      headers['content-type'] = 'application/json';
      // The last guard (key-never-shown): whatever an analyzer or a user wrote, the key never goes into a post or
      // bio, in any case.
      if (options.apiKey !== undefined && holdsKey(body, options.apiKey)) {
        throw new UsageError('refusing to send a request whose body contains the API key', {
          hint: 'nothing was sent',
        });
      }
    }
    const budget = remaining();
    // A write sent with a second left would time out after leaving, and its thread could then never be
    // posted again (never-twice): with too little time it is not sent at all, and stays due (no-thread-lost).
    if (!maySend(call.method, budget)) throw new BudgetError();
    return transport.send({
      method: call.method,
      url,
      headers,
      body,
      timeoutMs: Math.min(timeoutMs, budget),
      maxBodyBytes,
    });
  }

  let lastDate: HttpClient['lastDate'];

  async function call(call: CallOptions) {
    let rateLimitWaited = false;
    const timedOut: number[] = [];
    for (let attempt = 0; ; attempt++) {
      if (pauseEnds !== undefined) await waitOut(pauseEnds, EARLIER_PAUSE);
      let response: HttpResponse;
      try {
        response = await sendOnce(call);
      } catch (error) {
        if (error instanceof TimeoutError && error.waitedMs !== undefined) timedOut.push(error.waitedMs);
        if (await retryable(call, attempt, error)) continue;
        throw timedOut.length > 1 && timedOut.length === attempt + 1
          ? everyTryTimedOut(error as TimeoutError, timedOut, options.baseUrl.origin)
          : error;
      }
      const date = Date.parse(String(response.headers.date ?? ''));
      if (Number.isFinite(date)) lastDate = { service: date, local: timing.now() };
      if (response.status >= 200 && response.status < 300)
        return { status: response.status, ...parseJson(response.body) };
      if (response.status === 429) {
        const pause = pauseAfter429(response.headers['retry-after'], timing.now());
        pauseEnds = pause.until;
        options.onRateLimited?.(pauseEnds);
        const why = pause.why;
        // A 429 means the request was not processed, so sending it again once after the pause is safe, POST included.
        if (!rateLimitWaited) {
          rateLimitWaited = true;
          await waitOut(pauseEnds, why);
          continue;
        }
        throw new RateLimitedError(`still rate limited after waiting (${why})`, pauseEnds);
      }
      const error = statusError(response, base, options.apiKey);
      if (await retryable(call, attempt, error)) continue;
      throw error;
    }
  }

  // GETs are retried on temporary failures; a POST or PATCH only when it certainly never left (polite).
  async function retryable(call: CallOptions, attempt: number, error: unknown): Promise<boolean> {
    if (attempt >= GET_RETRIES || !(error instanceof TemporaryError) || error instanceof RateLimitedError) return false;
    const safe = call.method === 'GET' || (error instanceof NetworkError && error.notSent);
    if (!safe) return false;
    const delay = RETRY_BASE_MS * 2 ** attempt * (0.5 + timing.random());
    if (delay >= remaining()) return false;
    await timing.sleep(delay, options.signal);
    return !options.signal?.aborted;
  }

  return {
    call,
    get pauseEnds() {
      return pauseEnds;
    },
    get lastDate() {
      return lastDate;
    },
  };
}

// Each try has its own timeout: after three, "within 15 s" would describe the last 15 of ~46 s waited.
function everyTryTimedOut(last: TimeoutError, waitedMs: number[], origin: string): TimeoutError {
  const seconds = waitedMs.map((ms) => `${ms / 1000} s`);
  const each = seconds.every((s) => s === seconds[0]) ? `of ${seconds[0]} each` : `that waited ${seconds.join(', ')}`;
  return new TimeoutError(`no complete answer from ${origin} after ${waitedMs.length} tries ${each}`, last.notSent, {
    hint: last.hint,
    cause: last,
  });
}

function parseJson(text: string): { json: unknown; text: string } {
  if (!text.trim()) return { json: undefined, text };
  const parsed = parseBoundedJson(text);
  if (parsed.ok) return { json: parsed.value, text };
  if (parsed.tooDeep) {
    throw new ResponseError(`the service answered with JSON nested more than ${MAX_JSON_DEPTH} levels deep; refused`, {
      hint: 'try again later; if it persists the service may have changed',
    });
  }
  return { json: undefined, text };
}

function statusError(response: HttpResponse, base: string, apiKey: string | undefined): AgentError {
  const { status } = response;
  // A service that echoes the key ("invalid key hive_…") must not put it in a message: masked before the
  // text is cut to length, so no part of it survives a cut either (key-never-shown).
  const body = apiKey && apiKey.length >= 8 ? new KeyForms(apiKey).mask(response.body, maskKey(apiKey)) : response.body;
  const said = errorBodyText(body, String(response.headers['content-type'] ?? ''));
  const suffix = said ? `: ${said}` : '';
  if (status >= 300 && status < 400) {
    const location = String(response.headers.location ?? '');
    let where = 'another address';
    try {
      // A relative Location stays on the service's own origin.
      if (location) where = new URL(location, `${base}/`).origin;
    } catch {
      // an unparseable Location says nothing useful
    }
    return new RedirectError(
      `the service answered ${status}, a redirect to ${where}; not followed, the key stays here`,
      status,
      {
        hint: 'if the service has moved, register again with the new --base-url',
      },
    );
  }
  if (status === 401)
    return new AuthError(`the service rejected the API key (401)${suffix}`, {
      hint: 'the key was rejected: register again with "agent register --force" (the old state is kept as a backup)',
    });
  if (status === 408 || status >= 500)
    return new ServerError(`the service failed (${status})${suffix}`, status, { hint: 'try again later' });
  return new RejectedError(`the service refused the request (${status})${suffix}`, status, { said: said || undefined });
}
