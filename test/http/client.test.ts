import fc from 'fast-check';
import nock from 'nock';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  AuthError,
  EXIT,
  RedirectError,
  RejectedError,
  ServerError,
  UsageError,
  type AgentError,
} from '../../src/errors.js';
import { createHttpClient, type HttpClientOptions } from '../../src/http/client.js';
import type { HttpRequest, Transport } from '../../src/http/transport.js';
import { useNock } from '../support/nock.js';
import { fakeTiming, type FakeTiming } from '../support/timing.js';
import { failure } from '../support/failure.js';

// The HTTP client against nock on node:http: what it sends, where, and what each answer becomes.

const BASE = 'https://svc.example.test';
const EVIL = 'https://evil.example.test';
const KEY = 'hive_0123456789abcdefSECRETKEY';

const net = useNock();
let timing: FakeTiming;
beforeEach(() => {
  timing = fakeTiming();
});

function client(overrides: Partial<HttpClientOptions> = {}) {
  return createHttpClient({ baseUrl: new URL(BASE), apiKey: KEY, transport: net.transport(), timing, ...overrides });
}

/** Every request that reaches EVIL is recorded; the tests expect none. */
function trapEvil(): { hits: string[]; scope: nock.Scope } {
  const hits: string[] = [];
  const record = function (this: nock.ReplyFnContext, uri: string): [number, string] {
    hits.push(`${this.req.method} ${uri} key=${String(this.req.headers['x-api-key'])}`);
    return [200, '{}'];
  };
  const scope = nock(EVIL)
    .persist()
    .get(() => true)
    .reply(record)
    .post(() => true)
    .reply(record)
    .patch(() => true)
    .reply(record);
  return { hits, scope };
}

describe('what is sent', () => {
  it('sends x-api-key and accept to the base origin, and no Authorization or cookie', async () => {
    const scope = nock(BASE, {
      reqheaders: { 'x-api-key': KEY, accept: 'application/json' },
      badheaders: ['authorization', 'cookie', 'content-type'],
    })
      .get('/agent/me')
      .reply(200, { id: 'a1', name: 'bot' });
    const result = await client().call({ method: 'GET', path: ['agent', 'me'] });
    expect(result).toEqual({ status: 200, json: { id: 'a1', name: 'bot' }, text: '{"id":"a1","name":"bot"}' });
    scope.done();
  });

  it('sends no key at all when the client has none (registration)', async () => {
    const body = { name: 'bot', prediction_profile: { signal_method: 'macro' } };
    const scope = nock(BASE, {
      reqheaders: { 'content-type': 'application/json' },
      badheaders: ['x-api-key', 'authorization'],
    })
      .post('/agent/register', body)
      .reply(201, { agent: { id: 'a1', name: 'bot' }, api_key: KEY });
    const result = await client({ apiKey: undefined }).call({ method: 'POST', path: ['agent', 'register'], body });
    expect(result.status).toBe(201);
    scope.done();
  });

  it('sends a body as JSON with its content type and length', async () => {
    const body = { text: 'Bullish on c/bitcoin: ETF inflows keep rising.', thread_id: 't1', conviction: 1.5 };
    const scope = nock(BASE, {
      reqheaders: {
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(JSON.stringify(body))),
        'x-api-key': KEY,
      },
    })
      .post('/comment/t1', body)
      .reply(201, { id: 'c1' });
    await client().call({ method: 'POST', path: ['comment', 't1'], body });
    scope.done();
  });

  it('keeps a path prefix of the base URL', async () => {
    const scope = nock(BASE, { reqheaders: { 'x-api-key': KEY } })
      .patch('/api/v2/agent/me', { bio: 'b' })
      .reply(200, {});
    await client({ baseUrl: new URL(`${BASE}/api/v2`) }).call({
      method: 'PATCH',
      path: ['agent', 'me'],
      body: { bio: 'b' },
    });
    scope.done();
  });
});

describe('an id that looks like a path or a URL stays one path segment on the base origin (key-origin-only)', () => {
  const cases: Array<[id: string, segment: string]> = [
    ['../x', '..%2Fx'],
    ['../../agent/me', '..%2F..%2Fagent%2Fme'],
    ['//evil/x', '%2F%2Fevil%2Fx'],
    ['a/b', 'a%2Fb'],
    ['%2F', '%252F'],
    ['%2e%2e', '%252e%252e'],
    ['?q', '%3Fq'],
    ['#f', '%23f'],
    ['a?limit=1#x', 'a%3Flimit%3D1%23x'],
    [`${EVIL}/steal`, 'https%3A%2F%2Fevil.example.test%2Fsteal'],
    ['@evil.example.test', '%40evil.example.test'],
    ['...', '%2E%2E%2E'],
    ['a b', 'a%20b'],
    ['\\x', '%5Cx'],
    ['é', '%C3%A9'],
  ];

  it.each(cases)('%j → /thread/%s', async (id, segment) => {
    const evil = trapEvil();
    const seen: string[] = [];
    const scope = nock(BASE, { reqheaders: { 'x-api-key': KEY } })
      .get(() => true)
      .reply(function (uri) {
        seen.push(`${this.req.headers.host} ${uri}`);
        return [200, {}];
      })
      .post(() => true)
      .reply(function (uri) {
        seen.push(`${this.req.headers.host} ${uri}`);
        return [201, {}];
      });
    await client().call({ method: 'GET', path: ['thread', id] });
    await client().call({ method: 'POST', path: ['comment', id], body: { thread_id: id } });
    expect(seen).toEqual([`svc.example.test /thread/${segment}`, `svc.example.test /comment/${segment}`]);
    for (const line of seen) expect(line.split(' ')[1]!.split('/')).toHaveLength(3);
    scope.done();
    expect(evil.hits).toEqual([]);
    nock.cleanAll(); // the trap is meant to stay unused
  });

  // The URL standard turns `.`/`..` into "here"/"up" in every spelling, so such ids are refused unsent.
  it.each(['..', '.', ''])('refuses %j without sending anything', async (id) => {
    const error = await failure(client().call({ method: 'GET', path: ['thread', id] }));
    expect(error).toBeInstanceOf(UsageError);
    expect(error.exitCode).toBe(EXIT.usage);
    const posted = await failure(client().call({ method: 'POST', path: ['comment', id], body: {} }));
    expect(posted).toBeInstanceOf(UsageError);
  });
});

describe('any id at all (property)', () => {
  it('goes to the base origin, as exactly one segment that decodes back to the id, key attached', async () => {
    const sent: HttpRequest[] = [];
    const recorder: Transport = {
      async send(request) {
        sent.push(request);
        return { status: 200, headers: {}, body: '{}' };
      },
      close() {},
    };
    const http = client({ baseUrl: new URL(`${BASE}/api`), transport: recorder });
    await fc.assert(
      fc.asyncProperty(
        fc.string({ unit: 'grapheme', minLength: 1, maxLength: 30 }).filter((id) => id !== '.' && id !== '..'),
        async (id) => {
          sent.length = 0;
          await http.call({ method: 'GET', path: ['thread', id] });
          const url = sent[0]!.url;
          expect(url.origin).toBe(BASE);
          expect(url.search).toBe('');
          expect(url.hash).toBe('');
          const segments = url.pathname.split('/');
          expect(segments.slice(0, 3)).toEqual(['', 'api', 'thread']);
          expect(segments).toHaveLength(4);
          expect(decodeURIComponent(segments[3]!)).toBe(id);
          expect(sent[0]!.headers['x-api-key']).toBe(KEY);
          expect(sent[0]!.headers.authorization).toBeUndefined();
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('query parameters', () => {
  it('sends the cursor encoded, so + and & survive', async () => {
    const seen: string[] = [];
    const cursor = { timestamp: '2025-06-01T13:00:00.000+01:00', id: 'a&b=c d' };
    const scope = nock(BASE)
      .get('/thread')
      .query({ limit: '50', timestamp: cursor.timestamp, id: cursor.id })
      .reply((uri) => {
        seen.push(uri);
        return [200, []];
      });
    await client().call({ method: 'GET', path: ['thread'], query: { limit: 50, ...cursor } });
    expect(seen[0]).toContain('timestamp=2025-06-01T13%3A00%3A00.000%2B01%3A00');
    scope.done();
  });

  it('leaves out parameters that are undefined', async () => {
    const scope = nock(BASE).get('/thread').query({ limit: '10' }).reply(200, []);
    await client().call({ method: 'GET', path: ['thread'], query: { limit: 10, timestamp: undefined, id: undefined } });
    scope.done();
  });
});

describe('2xx answers', () => {
  const cases: Array<[status: number, body: string, json: unknown]> = [
    [200, '{"id":"x"}', { id: 'x' }],
    [201, '[1,2]', [1, 2]],
    [204, '', undefined],
    [200, '   ', undefined],
    [200, 'OK', undefined],
    [200, '{"truncated":', undefined],
    [200, '<html>hi</html>', undefined],
  ];
  it.each(cases)('%i %j → json %j, text kept', async (status, body, json) => {
    const scope = nock(BASE).get('/agent/me').reply(status, body);
    await expect(client().call({ method: 'GET', path: ['agent', 'me'] })).resolves.toEqual({
      status,
      json,
      text: body,
    });
    scope.done();
  });
});

describe('each status becomes its typed error and exit code', () => {
  // POST, so that no status is retried and one interceptor answers.
  const cases: Array<[status: number, type: new (...args: never[]) => AgentError, exit: number]> = [
    [400, RejectedError, EXIT.usage],
    [422, RejectedError, EXIT.usage],
    [401, AuthError, EXIT.notRegistered],
    [403, RejectedError, EXIT.usage],
    [404, RejectedError, EXIT.usage],
    [409, RejectedError, EXIT.usage],
    [418, RejectedError, EXIT.usage],
    [408, ServerError, EXIT.temporary],
    [500, ServerError, EXIT.temporary],
    [502, ServerError, EXIT.temporary],
    [503, ServerError, EXIT.temporary],
    [504, ServerError, EXIT.temporary],
  ];
  it.each(cases)('%i → %o', async (status, type, exit) => {
    const scope = nock(BASE)
      .post('/comment/t1')
      .reply(status, { message: `said ${status}` });
    const error = await failure(client().call({ method: 'POST', path: ['comment', 't1'], body: {} }));
    expect(error).toBeInstanceOf(type);
    expect(error.exitCode).toBe(exit);
    if (error instanceof RejectedError || error instanceof ServerError) expect(error.status).toBe(status);
    expect(error.message).toContain(`(${status})`);
    expect(error.message).toContain(`said ${status}`);
    expect(error.message).not.toContain(KEY);
    scope.done();
  });

  it('401 hints at registering again', async () => {
    const scope = nock(BASE).get('/agent/me').reply(401, '');
    const error = await failure(client().call({ method: 'GET', path: ['agent', 'me'] }));
    expect(error).toBeInstanceOf(AuthError);
    expect(error.message).toBe('the service rejected the API key (401)');
    expect(error.hint).toContain('agent register');
    scope.done();
  });
});

describe('redirects are never followed: the other origin receives nothing (key-origin-only)', () => {
  const cases = [301, 302, 303, 307, 308].flatMap((status) => [
    [status, 'GET'],
    [status, 'POST'],
  ]) as Array<[number, 'GET' | 'POST']>;

  it.each(cases)('%i on %s', async (status, method) => {
    const evil = trapEvil();
    const scope = nock(BASE)
      .intercept('/agent/me', method)
      .reply(status, '<html>Moved</html>', { location: `${EVIL}/agent/me` });
    const error = await failure(
      client().call({ method, path: ['agent', 'me'], ...(method === 'POST' ? { body: {} } : {}) }),
    );
    expect(error).toBeInstanceOf(RedirectError);
    expect(error.exitCode).toBe(EXIT.unexpected);
    expect(error.message).toContain(`${status}`);
    expect(error.message).toContain(EVIL);
    expect(error.message).toContain('not followed');
    expect(error.message).not.toContain(KEY);
    scope.done();
    expect(evil.hits).toEqual([]);
    expect(evil.scope.isDone()).toBe(false);
    nock.cleanAll(); // the trap is meant to stay unused
  });

  it.each([
    ['/elsewhere', BASE],
    ['', 'another address'],
    ['http://[not a url', 'another address'],
  ])('Location %j is described as %j', async (location, where) => {
    const scope = nock(BASE)
      .get('/agent/me')
      .reply(302, '', location ? { location } : {});
    const error = await failure(client().call({ method: 'GET', path: ['agent', 'me'] }));
    expect(error).toBeInstanceOf(RedirectError);
    expect(error.message).toContain(`a redirect to ${where};`);
    scope.done();
  });
});

describe('error bodies of every shape become one clean line', () => {
  const html = `<!DOCTYPE html><html><head><title>502 Bad Gateway</title><style>p{}</style></head>
<body><h1>Bad Gateway</h1><script>alert(1)</script></body></html>`;
  const cases: Array<[what: string, body: string, type: string, said: string]> = [
    [
      '{message} string',
      '{"message":"name must be 3-50 characters"}',
      'application/json',
      'name must be 3-50 characters',
    ],
    [
      '{message} array',
      '{"message":["text too short","conviction missing"]}',
      'application/json',
      'text too short; conviction missing',
    ],
    ['{error} string', '{"error":"Bad Request"}', 'application/json', 'Bad Request'],
    ['{error} object', '{"error":{"code":"E_LOCK","message":"thread locked"}}', 'application/json', 'thread locked'],
    ['plain text', 'Something broke\r\nat line 2', 'text/plain', 'Something broke at line 2'],
    ['HTML page', html, 'text/html', '502 Bad Gateway'],
    [
      'escapes in JSON',
      '{"message":"\\u001b[31mred\\u001b[0m\\u0007 \\u001b]8;;https://x\\u0007link\\u001b]8;;\\u0007"}',
      'application/json',
      'red link',
    ],
    ['escapes in text', '\u001b[2J\u001b[Hcleared\u009b31m screen\u0000', 'text/plain', 'cleared screen'],
  ];

  it.each(cases)('%s', async (_what, body, type, said) => {
    const scope = nock(BASE).post('/comment/t1').reply(400, body, { 'content-type': type });
    const error = await failure(client().call({ method: 'POST', path: ['comment', 't1'], body: {} }));
    expect(error.message).toBe(`the service refused the request (400): ${said}`);
    expect(error.message).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
    scope.done();
  });

  it.each([
    ['as JSON', JSON.stringify({ message: `invalid key ${KEY}` }), 401],
    ['as text', `invalid key ${KEY}`, 400],
    ['where the cut falls inside it', `${'x'.repeat(190)} ${KEY}`, 400],
  ])(
    'a key echoed by the service %s is masked before the message is built (key-never-shown)',
    async (_what, body, status) => {
      const scope = nock(BASE).post('/comment/t1').reply(status, body);
      const error = await failure(client().call({ method: 'POST', path: ['comment', 't1'], body: {} }));
      expect(error.message).not.toContain(KEY.slice(0, 8));
      expect(error.message).not.toContain(KEY.slice(-8));
      scope.done();
    },
  );

  it('a huge error body is cut to a short line', async () => {
    const scope = nock(BASE).post('/comment/t1').reply(500, 'x'.repeat(100_000));
    const error = await failure(client().call({ method: 'POST', path: ['comment', 't1'], body: {} }));
    expect(error.message.length).toBeLessThan(260);
    expect(error.message.endsWith('…')).toBe(true);
    scope.done();
  });
});
