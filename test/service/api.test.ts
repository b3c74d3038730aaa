import nock from 'nock';
import { beforeEach, describe, expect, it } from 'vitest';
import { AuthError, EXIT, LockedError, RejectedError, ResponseError, ServerError } from '../../src/errors.js';
import { createHttpClient } from '../../src/http/client.js';
import { createServiceApi, type ServiceApi } from '../../src/service/api.js';
import { useNock } from '../support/nock.js';
import { fakeTiming } from '../support/timing.js';
import { wireThread } from '../support/threads.js';
import { failure } from '../support/failure.js';

// The interface as typed calls, against nock: bare and wrapped bodies, tolerant parsing, and what each
// refusal means for each endpoint.

const BASE = 'https://svc.example.test';
const KEY = 'hive_0123456789abcdefSECRETKEY';
const PROFILE = {
  signal_method: 'technical',
  conviction_style: 'moderate',
  directional_bias: 'neutral',
  participation: 'active',
} as const;
const AGENT = {
  id: 'agent-1',
  name: 'bot',
  prediction_profile: PROFILE,
  honey: 0,
  wax: 0,
  total_comments: 0,
  created_at: '2025-06-01T12:00:00Z',
  updated_at: '2025-06-01T12:00:00Z',
};

const net = useNock();
let api: ServiceApi;
let anonymous: ServiceApi;
beforeEach(() => {
  const timing = fakeTiming();
  api = createServiceApi(createHttpClient({ baseUrl: new URL(BASE), apiKey: KEY, transport: net.transport(), timing }));
  anonymous = createServiceApi(createHttpClient({ baseUrl: new URL(BASE), transport: net.transport(), timing }));
});

const authed = () => nock(BASE, { reqheaders: { 'x-api-key': KEY }, badheaders: ['authorization'] });

describe('register', () => {
  const input = { name: 'bot', bio: 'hi', prediction_profile: PROFILE };

  it.each([
    ['bare', { agent: AGENT, api_key: KEY }],
    ['wrapped in data', { data: { agent: AGENT, api_key: KEY } }],
  ])('%s answer gives the agent and the key', async (_what, body) => {
    const scope = nock(BASE, { badheaders: ['x-api-key', 'authorization'] })
      .post('/agent/register', input)
      .reply(201, body);
    await expect(anonymous.register(input)).resolves.toEqual({ agent: AGENT, apiKey: KEY });
    scope.done();
  });

  it('409 means the name is taken', async () => {
    const scope = nock(BASE).post('/agent/register').reply(409, { message: 'conflict' });
    const error = await failure(anonymous.register(input));
    expect(error).toBeInstanceOf(RejectedError);
    expect(error.message).toBe('the name "bot" is already taken');
    expect(error.hint).toContain('--name');
    expect(error.exitCode).toBe(EXIT.usage);
    scope.done();
  });

  it('400 passes the service words on', async () => {
    const scope = nock(BASE)
      .post('/agent/register')
      .reply(400, { message: ['bio too long'] });
    const error = await failure(anonymous.register(input));
    expect(error).toBeInstanceOf(RejectedError);
    expect(error.message).toContain('bio too long');
    scope.done();
  });

  it.each([
    ['no key', { agent: AGENT }],
    ['a key with a space', { agent: AGENT, api_key: 'hive_abc def ghi' }],
    ['not JSON', 'Created'],
  ])('an answer with %s is a ResponseError', async (_what, body) => {
    const scope = nock(BASE).post('/agent/register').reply(201, body);
    const error = await failure(anonymous.register(input));
    expect(error).toBeInstanceOf(ResponseError);
    expect(error.message).toContain('registration');
    scope.done();
  });

  // Once issued, the key is the agent's identity: an agent object we cannot read must not lose it.
  it.each([
    ['no agent id', { agent: { name: 'bot' }, api_key: KEY }, 'unknown'],
    [
      'a profile value out of the list',
      { agent: { id: 'a9', name: 'bot', prediction_profile: { participation: 'Selective' } }, api_key: KEY },
      'a9',
    ],
    ['no agent at all', { api_key: KEY }, 'unknown'],
  ])('an answer with a valid key and %s still yields the key', async (_what, body, id) => {
    const scope = nock(BASE).post('/agent/register').reply(201, body);
    const result = await anonymous.register(input);
    expect(result.apiKey).toBe(KEY);
    expect(result.agent).toMatchObject({ id, name: expect.any(String) });
    scope.done();
  });
});

describe('me and updateMe', () => {
  it.each([
    ['bare', AGENT],
    ['wrapped', { agent: AGENT }],
  ])('me: %s agent', async (_what, body) => {
    const scope = authed().get('/agent/me').reply(200, body);
    await expect(api.me()).resolves.toEqual(AGENT);
    scope.done();
  });

  it('me keeps fields the interface does not list and reads numbers sent as text', async () => {
    const scope = authed()
      .get('/agent/me')
      .reply(200, { ...AGENT, id: 7, honey: '12.5', streak: 3, prediction_profile: { ...PROFILE, extra: true } });
    const agent = await api.me();
    expect(agent).toMatchObject({ id: '7', honey: 12.5, streak: 3, prediction_profile: { ...PROFILE, extra: true } });
    scope.done();
  });

  it('me: an answer without a name is a ResponseError naming the field', async () => {
    const scope = authed().get('/agent/me').reply(200, { id: 'a' });
    const error = await failure(api.me());
    expect(error).toBeInstanceOf(ResponseError);
    expect(error.message).toContain('name');
    scope.done();
  });

  it('me: 401 is an AuthError', async () => {
    const scope = authed().get('/agent/me').reply(401, { error: 'invalid key' });
    const error = await failure(api.me());
    expect(error).toBeInstanceOf(AuthError);
    expect(error.exitCode).toBe(EXIT.notRegistered);
    scope.done();
  });

  it.each([
    ['the agent', AGENT, AGENT],
    ['a wrapped agent', { agent: AGENT }, AGENT],
    ['nothing', '', undefined],
    ['something else', { ok: true }, undefined],
  ])('updateMe sends a PATCH; an answer of %s gives %#', async (_what, body, result) => {
    const patch = { bio: 'new', prediction_profile: PROFILE };
    const scope = authed().patch('/agent/me', patch).reply(200, body);
    await expect(api.updateMe(patch)).resolves.toEqual(result);
    scope.done();
  });
});

describe('threads', () => {
  const a = wireThread('a', '2025-06-01T12:00:00Z');
  const b = wireThread('b', '2025-06-01T12:05:00Z', { project_id: 'ethereum', locked: true });

  it.each([
    ['a bare array', [a, b]],
    ['{threads, total}', { threads: [a, b], total: 2 }],
    ['{data: {threads}}', { data: { threads: [a, b] } }],
    ['{data: [...]}', { data: [a, b] }],
    ['{items}', { items: [a, b] }],
  ])('reads %s', async (_what, body) => {
    const scope = authed().get('/thread').query({ limit: '50' }).reply(200, body);
    const page = await api.threads(50, null);
    expect(page.size).toBe(2);
    expect(page.malformed).toEqual([]);
    expect(page.unidentifiable).toBe(0);
    expect(page.threads).toEqual([
      {
        id: 'a',
        projectId: 'c/bitcoin',
        cell: 'bitcoin',
        text: a.text,
        timestamp: a.timestamp,
        locked: false,
        priceOnFetch: 64000.5,
        citations: [{ url: 'https://news.example/a', title: 'A' }],
      },
      {
        id: 'b',
        projectId: 'ethereum',
        cell: 'ethereum',
        text: b.text,
        timestamp: b.timestamp,
        locked: true,
        priceOnFetch: 64000.5,
        citations: [{ url: 'https://news.example/a', title: 'A' }],
      },
    ]);
    scope.done();
  });

  it('sends the cursor when there is one', async () => {
    const scope = authed()
      .get('/thread')
      .query({ limit: '5', timestamp: '2025-06-01T12:00:00Z', id: 'a' })
      .reply(200, []);
    await expect(api.threads(5, { timestamp: '2025-06-01T12:00:00Z', id: 'a' })).resolves.toEqual({
      threads: [],
      malformed: [],
      undated: [],
      unidentifiable: 0,
      size: 0,
    });
    scope.done();
  });

  it('tolerates what the client does not need: numeric id, missing locked/price/citations, odd citations', async () => {
    const odd = {
      id: 42,
      project_id: 'c/Solana ',
      text: 'x',
      timestamp: '2025-06-01T12:00:00.123+02:00',
      price_on_fetch: 'n/a',
      citations: [{ title: 'no url' }, { url: 5, title: 'bad url' }, null, 'text'],
      extra: { nested: true },
    };
    const bare = {
      id: 'c',
      project_id: 'c/x',
      text: 'y',
      timestamp: '2025-06-01T12:00:00Z',
      citations: 'none',
      price_on_fetch: '123.5',
    };
    const scope = authed().get('/thread').query(true).reply(200, [odd, bare]);
    const page = await api.threads(50, null);
    expect(page.threads).toEqual([
      {
        id: '42',
        projectId: 'c/Solana ',
        cell: 'solana',
        text: 'x',
        timestamp: odd.timestamp,
        locked: false,
        priceOnFetch: undefined,
        citations: [{ url: undefined, title: 'no url' }, { url: undefined, title: 'bad url' }, {}, {}],
      },
      {
        id: 'c',
        projectId: 'c/x',
        cell: 'x',
        text: 'y',
        timestamp: bare.timestamp,
        locked: false,
        priceOnFetch: 123.5,
        citations: [],
      },
    ]);
    scope.done();
  });

  it('a malformed element that names itself is skipped with a reason; one with only an id is named; one with none is counted', async () => {
    const body = [
      a,
      { id: 'no-text', timestamp: '2025-06-01T12:01:00Z', project_id: 'c/x' },
      { id: 9, timestamp: '2025-06-01T12:02:00Z', text: 'y', project_id: 'c/x', locked: 'yes' },
      { id: 'bad-ts', timestamp: 'yesterday', text: 'y', project_id: 'c/x' },
      { text: 'no id', timestamp: '2025-06-01T12:03:00Z', project_id: 'c/x' },
      { id: '', timestamp: '2025-06-01T12:03:00Z', text: 'y', project_id: 'c/x' },
      null,
      'thread',
      42,
      [],
    ];
    const scope = authed().get('/thread').query(true).reply(200, body);
    const page = await api.threads(50, null);
    expect(page.size).toBe(10);
    expect(page.threads.map((t) => t.id)).toEqual(['a']);
    expect(page.malformed).toEqual([
      { id: 'no-text', timestamp: '2025-06-01T12:01:00Z', reason: expect.stringMatching(/^malformed thread \(text: /) },
      { id: '9', timestamp: '2025-06-01T12:02:00Z', reason: expect.stringMatching(/^malformed thread \(locked: /) },
    ]);
    expect(page.undated).toEqual([{ id: 'bad-ts', sent: '"yesterday"' }]);
    expect(page.unidentifiable).toBe(6);
    scope.done();
  });

  it.each([
    ['foo 1', '"foo 1"'], // Date.parse reads it as 2001-01-01
    ['2025-02-30T12:00:00Z', '"2025-02-30T12:00:00Z"'], // Date.parse rolls it over to March
    ['2025-06-01 12:00:00', '"2025-06-01 12:00:00"'],
    [1748779200000, '1748779200000'],
    [undefined, undefined],
  ])(
    'a thread dated %j is neither handled nor skipped, only named: it cannot be placed relative to the cursor',
    async (timestamp, sent) => {
      const scope = authed()
        .get('/thread')
        .query(true)
        .reply(200, [a, { ...a, id: 'odd', timestamp }]);
      const page = await api.threads(50, null);
      expect(page.threads.map((t) => t.id)).toEqual(['a']);
      expect(page.malformed).toEqual([]);
      expect(page.undated).toEqual([{ id: 'odd', sent }]);
      scope.done();
    },
  );

  it.each([
    ['an object', { threads: 'none' }],
    ['a string', '"threads"'],
    ['null', 'null'],
    ['an HTML page', '<html><body>maintenance</body></html>'],
    ['truncated JSON', '[{"id":"a",'],
  ])('a list that is %s is a ResponseError', async (_what, body) => {
    const scope = authed().get('/thread').query(true).reply(200, body);
    const error = await failure(api.threads(50, null));
    expect(error).toBeInstanceOf(ResponseError);
    expect(error.message).toContain('the thread list is not a list');
    expect(error.exitCode).toBe(EXIT.temporary);
    scope.done();
  });
});

describe('thread', () => {
  const wire = wireThread('t-1', '2025-06-01T12:00:00Z');

  it.each([
    ['bare', wire],
    ['{thread, comment_count}', { thread: wire, comment_count: 3 }],
    ['{data: {thread}}', { data: { thread: wire } }],
  ])('reads a %s thread', async (_what, body) => {
    const scope = authed().get('/thread/t-1').reply(200, body);
    await expect(api.thread('t-1')).resolves.toMatchObject({ id: 't-1', cell: 'bitcoin', locked: false });
    scope.done();
  });

  it('asks for an odd id as one segment', async () => {
    const scope = authed()
      .get('/thread/..%2F..%2Fagent%2Fme')
      .reply(200, wireThread('../../agent/me', '2025-06-01T12:00:00Z'));
    await expect(api.thread('../../agent/me')).resolves.toMatchObject({ id: '../../agent/me' });
    scope.done();
  });

  it('404 is "no such thread"', async () => {
    const scope = authed().get('/thread/nope').reply(404, { message: 'Not Found' });
    const error = await failure(api.thread('nope'));
    expect(error).toBeInstanceOf(RejectedError);
    expect(error.message).toBe('no such thread: "nope"');
    expect(error.exitCode).toBe(EXIT.usage);
    scope.done();
  });

  it('an answer that is not a thread is a ResponseError', async () => {
    const scope = authed()
      .get('/thread/t-1')
      .reply(200, { thread: { id: 't-1' } });
    const error = await failure(api.thread('t-1'));
    expect(error).toBeInstanceOf(ResponseError);
    expect(error.message).toContain("the service's thread answer");
    scope.done();
  });
});

describe('predict', () => {
  const text = 'Bullish on c/bitcoin: ETF inflows keep rising.';
  const prediction = {
    id: 'c-1',
    thread_id: 't-1',
    agent_id: 'agent-1',
    text,
    conviction: 1.5,
    created_at: '2025-06-01T12:00:00Z',
  };
  const post = () => authed().post('/comment/t-1', { text, thread_id: 't-1', conviction: 1.5 });

  it.each([
    ['bare', prediction],
    ['{comment}', { comment: prediction }],
    ['{prediction}', { prediction }],
  ])('a %s answer gives the prediction', async (_what, body) => {
    const scope = post().reply(201, body);
    await expect(api.predict('t-1', text, 1.5)).resolves.toEqual({ status: 'posted', prediction });
    scope.done();
  });

  it.each([
    ['empty', ''],
    ['not JSON', 'Created'],
    ['truncated JSON', '{"id":'],
    ['an object without id', { ok: true }],
  ])('a 2xx with an unreadable body (%s) still counts as posted', async (_what, body) => {
    const scope = post().reply(201, body);
    await expect(api.predict('t-1', text, 1.5)).resolves.toEqual({ status: 'posted', prediction: undefined });
    scope.done();
  });

  it('409 means this agent already predicted there', async () => {
    const scope = post().reply(409, { message: 'duplicate' });
    await expect(api.predict('t-1', text, 1.5)).resolves.toEqual({ status: 'already' });
    scope.done();
  });

  it('403 is a LockedError, exit 4', async () => {
    const scope = post().reply(403, { message: 'Thread is locked' });
    const error = await failure(api.predict('t-1', text, 1.5));
    expect(error).toBeInstanceOf(LockedError);
    expect(error.exitCode).toBe(EXIT.locked);
    expect(error.message).toBe('thread "t-1" is locked: it accepts no new predictions');
    scope.done();
  });

  it('404 is "no such thread"', async () => {
    const scope = post().reply(404, '');
    const error = await failure(api.predict('t-1', text, 1.5));
    expect(error).toBeInstanceOf(RejectedError);
    expect(error.message).toBe('no such thread: "t-1"');
    scope.done();
  });

  it.each([
    [400, RejectedError],
    [401, AuthError],
    [500, ServerError],
  ])('%i passes through as its own error, sent once', async (status, type) => {
    const scope = post().reply(status, '');
    await expect(api.predict('t-1', text, 1.5)).rejects.toBeInstanceOf(type);
    scope.done();
  });
});
