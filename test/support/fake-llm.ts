import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { receiving } from './sent-bodies.js';

// A loopback stand-in for an OpenAI-compatible chat-completions API: a real node:http server (nock does
// not see undici's requests), answering each request with the next scripted reply and recording what
// it was sent. A request with no reply left gets a 599, so an unexpected request fails the test's
// assertions on the answer instead of passing quietly.

export interface RecordedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export type Reply =
  /** A status, headers and body (an object is sent as JSON), after an optional delay. */
  | { status?: number; headers?: Record<string, string>; body?: unknown; delayMs?: number }
  /** Never answers: the client has to give up. */
  | { hang: true };

export interface FakeLlm {
  /** The base URL to configure, path prefix included (`http://127.0.0.1:<port>/v1`). */
  baseUrl: string;
  origin: string;
  requests: RecordedRequest[];
  reply(...replies: Reply[]): void;
  /** Scripted replies no request has used yet. */
  unused(): number;
  /** Open TCP connections right now: 0 once every client has let go. */
  connections(): Promise<number>;
  close(): Promise<void>;
}

export async function startFakeLlm(prefix = '/v1', host = '127.0.0.1'): Promise<FakeLlm> {
  const requests: RecordedRequest[] = [];
  receiving(() => requests.map((r) => r.body));
  const script: Reply[] = [];
  const timers = new Set<NodeJS.Timeout>();

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      requests.push({
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      const reply = script.shift() ?? {
        status: 599,
        body: { error: { message: 'no reply scripted for this request' } },
      };
      if ('hang' in reply) return;
      const send = () => {
        if (res.destroyed) return;
        const json = typeof reply.body !== 'string';
        const body = reply.body === undefined ? '' : json ? JSON.stringify(reply.body) : (reply.body as string);
        res.writeHead(reply.status ?? 200, {
          'content-type': json ? 'application/json' : 'text/plain',
          ...reply.headers,
        });
        res.end(body);
      };
      if (!reply.delayMs) return send();
      const timer = setTimeout(() => {
        timers.delete(timer);
        send();
      }, reply.delayMs);
      timers.add(timer);
    });
  });
  // Long enough that a kept-alive connection is still open when a test counts it on a slow machine.
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const origin = `http://${host}:${(server.address() as AddressInfo).port}`;

  return {
    baseUrl: `${origin}${prefix}`,
    origin,
    requests,
    reply: (...replies) => void script.push(...replies),
    unused: () => script.length,
    connections: () =>
      new Promise((resolve, reject) => server.getConnections((error, n) => (error ? reject(error) : resolve(n)))),
    async close() {
      timers.forEach(clearTimeout);
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** A chat completion whose message says `content`, as OpenAI shapes it. */
export function completion(
  content: string | null,
  extra: { finish_reason?: string; refusal?: string; usage?: unknown } = {},
) {
  return {
    id: 'chatcmpl-test',
    object: 'chat.completion',
    model: 'test-model',
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content, refusal: extra.refusal ?? null },
        finish_reason: extra.finish_reason ?? 'stop',
      },
    ],
    usage: extra.usage ?? { prompt_tokens: 400, completion_tokens: 40, total_tokens: 440 },
  };
}

/** A completion carrying this decision as its JSON content. */
export function decisionReply(decision: Record<string, unknown>): Reply {
  return { body: completion(JSON.stringify(decision)) };
}
