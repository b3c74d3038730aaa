import nock from 'nock';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  BudgetError,
  ConnectionSetupError,
  EXIT,
  mayHaveLanded,
  NetworkError,
  RateLimitedError,
  RejectedError,
  ResponseError,
  ServerError,
  TimeoutError,
  UsageError,
} from '../../src/errors.js';
import { createHttpClient, type CallOptions, type HttpClientOptions } from '../../src/http/client.js';
import { MIN_WRITE_BUDGET_MS } from '../../src/domain/budget.js';
import { useNock } from '../support/nock.js';
import { fakeTiming, T0, type FakeTiming } from '../support/timing.js';
import { failure } from '../support/failure.js';

// Retries, back-off, rate limits and the run budget (bounded, polite). The clock is fake: every wait is recorded
// in timing.sleeps and costs no real time.

const BASE = 'https://svc.example.test';
const KEY = 'hive_0123456789abcdefSECRETKEY';

const net = useNock();
let timing: FakeTiming;
beforeEach(() => {
  timing = fakeTiming();
});

function client(overrides: Partial<HttpClientOptions> = {}) {
  return createHttpClient({ baseUrl: new URL(BASE), apiKey: KEY, transport: net.transport(), timing, ...overrides });
}

const get: CallOptions = { method: 'GET', path: ['thread'] };
const post = {
  method: 'POST',
  path: ['comment', 't1'],
  body: { text: 'x', thread_id: 't1', conviction: 1 },
} satisfies CallOptions;

function errno(code: string): Error {
  return Object.assign(new Error(`connect ${code}`), { code });
}

describe('GET is retried on temporary failures, 3 attempts at most', () => {
  it('503, 503, then 200 succeeds after two jittered back-offs', async () => {
    const scope = nock(BASE).get('/thread').times(2).reply(503, 'busy').get('/thread').reply(200, []);
    await expect(client().call(get)).resolves.toMatchObject({ status: 200, json: [] });
    expect(timing.sleeps).toEqual([400, 800]);
    scope.done();
  });

  it.each([408, 500, 502, 503, 504])('%i three times gives a ServerError after exactly 3 requests', async (status) => {
    const scope = nock(BASE).get('/thread').times(3).reply(status, '');
    const error = await failure(client().call(get));
    expect(error).toBeInstanceOf(ServerError);
    expect(error.exitCode).toBe(EXIT.temporary);
    expect(timing.sleeps).toHaveLength(2);
    scope.done();
  });

  it.each([
    [0, [200, 400]],
    [0.999, [599.6, 1199.2]],
  ])('the back-off is jittered within [0.5, 1.5) × base (random %d)', async (random, sleeps) => {
    timing = fakeTiming({ random });
    const scope = nock(BASE).get('/thread').times(3).reply(500);
    await failure(client().call(get));
    expect(timing.sleeps.map((ms) => Math.round(ms * 10) / 10)).toEqual(sleeps);
    scope.done();
  });

  it('a network error is retried, and gives a NetworkError after 3 attempts', async () => {
    const scope = nock(BASE).get('/thread').times(3).replyWithError(errno('ECONNRESET'));
    const error = await failure(client().call(get));
    expect(error).toBeInstanceOf(NetworkError);
    expect(error.message).toContain('ECONNRESET');
    scope.done();
  });

  it('a refused connection, then an answer', async () => {
    const scope = nock(BASE).get('/thread').replyWithError(errno('ECONNREFUSED')).get('/thread').reply(200, []);
    await expect(client().call(get)).resolves.toMatchObject({ status: 200 });
    expect(timing.sleeps).toEqual([400]);
    scope.done();
  });

  it('a timeout is retried, 3 attempts in all', async () => {
    const scope = nock(BASE).get('/thread').times(3).delay(2_000).reply(200, []);
    const error = await failure(client({ timeoutMs: 30 }).call(get));
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error.exitCode).toBe(EXIT.temporary);
    expect(timing.sleeps).toEqual([400, 800]);
    // Not "within 0.03 s": that was each try, and the user waited three of them plus the back-offs.
    expect(error.message).toBe(`no complete answer from ${BASE} after 3 tries of 0.03 s each`);
    scope.done();
  });

  it('a timeout on the last try only is reported as that one timeout', async () => {
    const scope = nock(BASE).get('/thread').times(2).reply(503, '').get('/thread').delay(2_000).reply(200, []);
    const error = await failure(client({ timeoutMs: 30 }).call(get));
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error.message).toBe(`no complete answer from ${BASE} within 0.03 s`);
    scope.done();
  });

  it('tries cut short by the run budget are reported with what each waited', async () => {
    const scope = nock(BASE).get('/thread').times(3).delay(2_000).reply(200, []);
    // The fake clock moves only by the back-offs (0.4 s, 0.8 s): the last try gets what is left, 0.02 s.
    const error = await failure(client({ timeoutMs: 30, deadline: T0 + 1_220 }).call(get));
    expect(error.message).toBe(`no complete answer from ${BASE} after 3 tries that waited 0.03 s, 0.03 s, 0.02 s`);
    scope.done();
  });

  it.each(['ENOTFOUND', 'DEPTH_ZERO_SELF_SIGNED_CERT', 'ERR_TLS_CERT_ALTNAME_INVALID'])(
    '%s is not retried: another try cannot fix the address',
    async (code) => {
      const scope = nock(BASE).get('/thread').replyWithError(errno(code));
      const error = await failure(client().call(get));
      expect(error).toBeInstanceOf(ConnectionSetupError);
      expect(timing.sleeps).toEqual([]);
      scope.done();
    },
  );

  it('an oversized answer is refused each time, 3 attempts in all', async () => {
    const scope = nock(BASE).get('/thread').times(3).reply(200, 'x'.repeat(2_000));
    const error = await failure(client({ maxBodyBytes: 1_000 }).call(get));
    expect(error).toBeInstanceOf(ResponseError);
    scope.done();
  });

  it.each([400, 401, 403, 404, 409, 422])('%i is not retried', async (status) => {
    const scope = nock(BASE).get('/thread').reply(status, '');
    await failure(client().call(get));
    expect(timing.sleeps).toEqual([]);
    scope.done();
  });
});

describe('POST and PATCH are never retried blindly (never-twice, polite)', () => {
  it.each([408, 500, 502, 503, 504])('POST %i: one request, ServerError', async (status) => {
    const scope = nock(BASE).post('/comment/t1').reply(status, '');
    const error = await failure(client().call(post));
    expect(error).toBeInstanceOf(ServerError);
    expect(timing.sleeps).toEqual([]);
    scope.done();
  });

  it('PATCH 503: one request', async () => {
    const scope = nock(BASE).patch('/agent/me').reply(503, '');
    await expect(client().call({ method: 'PATCH', path: ['agent', 'me'], body: { bio: 'b' } })).rejects.toBeInstanceOf(
      ServerError,
    );
    scope.done();
  });

  it('POST oversized answer: one request, and the post may have landed', async () => {
    const scope = nock(BASE).post('/comment/t1').reply(201, 'x'.repeat(2_000));
    const error = await failure(client({ maxBodyBytes: 1_000 }).call(post));
    expect(error).toBeInstanceOf(ResponseError);
    expect(mayHaveLanded(error)).toBe(true);
    scope.done();
  });

  it('POST refused connection (never sent) is retried', async () => {
    const scope = nock(BASE)
      .post('/comment/t1', post.body)
      .replyWithError(errno('ECONNREFUSED'))
      .post('/comment/t1', post.body)
      .reply(201, { id: 'c1' });
    await expect(client().call(post)).resolves.toMatchObject({ status: 201, json: { id: 'c1' } });
    expect(timing.sleeps).toEqual([400]);
    scope.done();
  });

  it('POST refused three times: NetworkError that certainly did not land', async () => {
    const scope = nock(BASE).post('/comment/t1').times(3).replyWithError(errno('ECONNREFUSED'));
    const error = await failure(client().call(post));
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).notSent).toBe(true);
    expect(mayHaveLanded(error)).toBe(false);
    scope.done();
  });
});

describe('429: wait max(60 s, Retry-After), then send once more (polite)', () => {
  it('POST 429 then 201: waits 60 s, sends the same body again', async () => {
    const waits: Array<[number, string]> = [];
    const scope = nock(BASE)
      .post('/comment/t1', post.body)
      .reply(429, { message: 'slow down' })
      .post('/comment/t1', post.body)
      .reply(201, { id: 'c1' });
    const http = client({ waitOnRateLimit: true, onWait: (ms, why) => waits.push([ms, why]) });
    await expect(http.call(post)).resolves.toMatchObject({ status: 201 });
    expect(timing.sleeps).toEqual([60_000]);
    expect(waits).toEqual([[60_000, 'rate limited by the service']]);
    expect(http.pauseEnds).toBe(T0 + 60_000);
    scope.done();
  });

  it('a second 429 in a row is not waited out again', async () => {
    const scope = nock(BASE).post('/comment/t1').times(2).reply(429, '');
    const http = client({ waitOnRateLimit: true });
    const error = await failure(http.call(post));
    expect(error).toBeInstanceOf(RateLimitedError);
    expect(error.exitCode).toBe(EXIT.temporary);
    expect(error.message).toContain('still rate limited');
    expect((error as RateLimitedError).until).toBe(T0 + 120_000);
    expect(timing.sleeps).toEqual([60_000]);
    scope.done();
  });

  it('GET 429 then 200', async () => {
    const scope = nock(BASE).get('/thread').reply(429, '').get('/thread').reply(200, []);
    await expect(client({ waitOnRateLimit: true }).call(get)).resolves.toMatchObject({ status: 200 });
    expect(timing.sleeps).toEqual([60_000]);
    scope.done();
  });

  const hour = 60 * 60_000;
  const cases: Array<[what: string, header: string | undefined, ms: number, capped: boolean]> = [
    ['missing', undefined, 60_000, false],
    ['seconds above the floor', '120', 120_000, false],
    ['fractional seconds', '90.5', 90_500, false],
    ['seconds below the floor', '5', 60_000, false],
    ['zero', '0', 60_000, false],
    ['an HTTP date 90 s ahead', new Date(T0 + 90_000).toUTCString(), 90_000, false],
    ['an HTTP date in the past', new Date(T0 - 90_000).toUTCString(), 60_000, false],
    ['garbage', 'soon, please', 60_000, false],
    ['negative', '-5', 60_000, false],
    ['absurd seconds', '99999999', hour, true],
    ['seconds too long to represent', '9'.repeat(400), hour, true],
    ['an HTTP date 3 days ahead', new Date(T0 + 3 * 24 * hour).toUTCString(), hour, true],
  ];
  it.each(cases)('Retry-After %s → waits %#', async (_what, header, ms, capped) => {
    const waits: string[] = [];
    const scope = nock(BASE)
      .get('/thread')
      .reply(429, '', header === undefined ? {} : { 'retry-after': header })
      .get('/thread')
      .reply(200, []);
    await client({ waitOnRateLimit: true, onWait: (_ms, why) => waits.push(why) }).call(get);
    expect(timing.sleeps).toEqual([ms]);
    expect(waits).toHaveLength(1);
    expect(waits[0]!.includes('capped at 60 min')).toBe(capped);
    scope.done();
  });

  it('an absurd pause that is not waited out says it was capped', async () => {
    const scope = nock(BASE).get('/thread').reply(429, '', { 'retry-after': '99999999' });
    const error = await failure(client().call(get));
    expect(error).toBeInstanceOf(RateLimitedError);
    expect(error.message).toContain('capped at 60 min');
    scope.done();
  });

  it('without waitOnRateLimit a 429 is thrown at once, and later calls send nothing', async () => {
    const scope = nock(BASE).post('/comment/t1').reply(429, '', { 'retry-after': '90' });
    const http = client();
    const error = await failure(http.call(post));
    expect(error).toBeInstanceOf(RateLimitedError);
    expect((error as RateLimitedError).until).toBe(T0 + 90_000);
    expect(error.hint).toContain('nothing is sent');
    expect(http.pauseEnds).toBe(T0 + 90_000);
    expect(timing.sleeps).toEqual([]);
    scope.done();
    // No interceptor is left: a request now would fail the test.
    await expect(http.call(get)).rejects.toBeInstanceOf(RateLimitedError);
  });

  it.each([
    ['60 s', undefined, T0 + 30_000],
    ['Retry-After 120 s', '120', T0 + 100_000],
  ])('a wait of %s that would pass the deadline is thrown at once', async (_what, header, deadline) => {
    const scope = nock(BASE)
      .get('/thread')
      .reply(429, '', header ? { 'retry-after': header } : {});
    const error = await failure(client({ waitOnRateLimit: true, deadline }).call(get));
    expect(error).toBeInstanceOf(RateLimitedError);
    expect(timing.sleeps).toEqual([]);
    scope.done();
  });

  it('a wait that fits in the deadline is waited out', async () => {
    const scope = nock(BASE).get('/thread').reply(429, '', { 'retry-after': '120' }).get('/thread').reply(200, []);
    await client({ waitOnRateLimit: true, deadline: T0 + 150_000 }).call(get);
    expect(timing.sleeps).toEqual([120_000]);
    scope.done();
  });
});

describe('pauseEnds from an earlier run: nothing is sent before it (polite)', () => {
  it('without waiting: RateLimitedError and no request', async () => {
    const error = await failure(client({ pauseEnds: T0 + 30_000 }).call(post));
    expect(error).toBeInstanceOf(RateLimitedError);
    expect((error as RateLimitedError).until).toBe(T0 + 30_000);
    expect(error.message).toContain(new Date(T0 + 30_000).toISOString());
  });

  it('when waiting would pass the deadline: RateLimitedError and no request', async () => {
    const error = await failure(
      client({ pauseEnds: T0 + 30_000, waitOnRateLimit: true, deadline: T0 + 20_000 }).call(get),
    );
    expect(error).toBeInstanceOf(RateLimitedError);
    expect(timing.sleeps).toEqual([]);
  });

  it('when waiting is allowed: the request leaves only once the block is over', async () => {
    const sentAt: number[] = [];
    const waits: number[] = [];
    const scope = nock(BASE)
      .get('/thread')
      .reply(() => {
        sentAt.push(timing.now());
        return [200, []];
      });
    await client({ pauseEnds: T0 + 30_000, waitOnRateLimit: true, onWait: (ms) => waits.push(ms) }).call(get);
    expect(timing.sleeps).toEqual([30_000]);
    expect(waits).toEqual([30_000]);
    expect(sentAt).toEqual([T0 + 30_000]);
    scope.done();
  });

  it('a block in the past is no block', async () => {
    const scope = nock(BASE).get('/thread').reply(200, []);
    await client({ pauseEnds: T0 - 1 }).call(get);
    expect(timing.sleeps).toEqual([]);
    scope.done();
  });
});

describe('the key in a body (key-never-shown)', () => {
  it.each([
    ['as written', KEY],
    ['split by a zero-width space', `${KEY.slice(0, 9)}\u200B${KEY.slice(9)}`],
    ['in full-width letters', KEY.replace('SECRET', 'ＳＥＣＲＥＴ')],
    ['lower-cased', KEY.toLowerCase()],
    ['upper-cased', KEY.toUpperCase()],
  ])('a body holding the key %s is never sent', async (_how, hidden) => {
    const error = await failure(
      client().call({ ...post, body: { text: `ref ${hidden} here`, thread_id: 't1', conviction: 1 } }),
    );
    expect(error).toBeInstanceOf(UsageError);
    expect(error.message).toBe('refusing to send a request whose body contains the API key');
  });
});

describe('the run budget (bounded)', () => {
  it('a deadline already passed sends nothing', async () => {
    const error = await failure(client({ deadline: T0 }).call(get));
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error.message).toContain('time budget');
    expect(error.exitCode).toBe(EXIT.temporary);
  });

  it('a POST is not sent with less than 5 s left (it could time out after leaving, and be lost); a GET still is', async () => {
    const error = await failure(client({ deadline: T0 + MIN_WRITE_BUDGET_MS }).call(post));
    expect(error).toBeInstanceOf(BudgetError);
    const scope = nock(BASE).get('/thread').reply(200, []);
    await client({ deadline: T0 + MIN_WRITE_BUDGET_MS }).call(get);
    scope.done();
    const posted = nock(BASE).post('/comment/t1').reply(200, { id: 'c1' });
    await client({ deadline: T0 + MIN_WRITE_BUDGET_MS + 1 }).call(post);
    posted.done();
  });

  it('no back-off is started that would end past the deadline', async () => {
    // 400 ms fits in 1000; then 800 ms does not fit in the 600 left.
    const scope = nock(BASE).get('/thread').times(2).reply(503, '');
    const error = await failure(client({ deadline: T0 + 1_000 }).call(get));
    expect(error).toBeInstanceOf(ServerError);
    expect(timing.sleeps).toEqual([400]);
    scope.done();
  });

  it('a request gets no more time than the budget has left', async () => {
    const scope = nock(BASE).get('/thread').delay(5_000).reply(200, []);
    const error = await failure(client({ deadline: T0 + 40, timeoutMs: 15_000 }).call(get));
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error.message).toContain('0.04 s');
    expect(timing.sleeps).toEqual([]);
    scope.done();
  });

  it('a 4xx is still reported as itself inside the budget', async () => {
    const scope = nock(BASE).get('/thread').reply(404, '{"error":"nope"}');
    await expect(client({ deadline: T0 + 10_000 }).call(get)).rejects.toBeInstanceOf(RejectedError);
    scope.done();
  });
});
