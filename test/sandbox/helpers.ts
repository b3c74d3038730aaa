// Plain HTTP against the sandbox: fetch and node:http only, nothing from the client's modules, so that a
// misreading of the interface shared by both sides cannot hide.
import { request } from 'node:http';
import { afterEach } from 'vitest';
import { createFakeClock, startSandbox } from '../../src/sandbox/index.js';
import type { FakeClock, RunningSandbox, SandboxOptions } from '../../src/sandbox/index.js';

export const PROFILE = {
  signal_method: 'technical',
  conviction_style: 'moderate',
  directional_bias: 'neutral',
  participation: 'active',
} as const;

export interface Harness {
  sandbox: RunningSandbox;
  clock: FakeClock;
  url: string;
}

const open: RunningSandbox[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((sandbox) => sandbox.close()));
});

/** A sandbox on a free port with a hand-driven clock, closed after the test. */
export async function start(options: SandboxOptions = {}): Promise<Harness> {
  const clock = createFakeClock();
  const sandbox = await startSandbox({ clock, ...options });
  open.push(sandbox);
  return { sandbox, clock: (options.clock as FakeClock | undefined) ?? clock, url: sandbox.url };
}

export interface Response {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: the answers, read loosely: their schemas are what is tested
  body: any;
  text: string;
}

export interface CallOptions {
  key?: string;
  /** Sent as JSON unless `raw` is given. */
  json?: unknown;
  raw?: string;
  headers?: Record<string, string>;
}

export async function call(url: string, method: string, path: string, options: CallOptions = {}): Promise<Response> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key !== undefined) headers['x-api-key'] = options.key;
  let body: string | undefined;
  if (options.json !== undefined) {
    body = JSON.stringify(options.json);
    headers['content-type'] ??= 'application/json';
  } else if (options.raw !== undefined) body = options.raw;
  const res = await fetch(url + path, { method, headers, body });
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = text === '' ? undefined : JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: res.status, headers: res.headers, body: parsed, text };
}

export async function register(
  url: string,
  name: string,
  extra: Record<string, unknown> = {},
): Promise<{ key: string; agent: Response['body'] }> {
  const res = await call(url, 'POST', '/agent/register', { json: { name, prediction_profile: PROFILE, ...extra } });
  if (res.status !== 201) throw new Error(`register ${name}: ${res.status} ${res.text}`);
  return { key: res.body.api_key, agent: res.body.agent };
}

export function predict(
  url: string,
  key: string,
  threadId: string,
  conviction: number,
  text = 'Bullish: ETF inflows and a breakout above resistance.',
) {
  return call(url, 'POST', `/comment/${encodeURIComponent(threadId)}`, {
    key,
    json: { text, thread_id: threadId, conviction },
  });
}

/** node:http for what fetch will not send (an oversized body written in pieces). */
export function rawRequest(
  url: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  chunks: string[],
): Promise<{ status: number; headers: Record<string, unknown>; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url + path, { method, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
    });
    req.on('error', reject);
    for (const chunk of chunks) req.write(chunk);
    req.end();
  });
}

export const HOUR = 3_600_000;
export const MINUTE = 60_000;
