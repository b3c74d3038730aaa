import { Readable } from 'node:stream';
import nock from 'nock';
import { describe, expect, it } from 'vitest';
import { ConnectionSetupError, EXIT, NetworkError, ResponseError, TimeoutError } from '../../src/errors.js';
import type { HttpRequest } from '../../src/http/transport.js';
import { useNock } from '../support/nock.js';
import { failure } from '../support/failure.js';

// The node:http transport on its own: it returns answers as they came and judges nothing but size,
// time and the connection.

const BASE = 'https://svc.example.test';
const net = useNock();

function request(overrides: Partial<HttpRequest> = {}): HttpRequest {
  return {
    method: 'GET',
    url: new URL(`${BASE}/thread`),
    headers: { accept: 'application/json' },
    timeoutMs: 5_000,
    maxBodyBytes: 10_000,
    ...overrides,
  };
}

function errno(code: string | undefined): Error {
  return Object.assign(new Error(`failed with ${code}`), code ? { code } : {});
}

describe('answers', () => {
  it('returns status, headers and body as they came', async () => {
    const scope = nock(BASE).get('/thread').reply(418, 'teapot', { 'x-thing': 'yes', 'retry-after': '7' });
    const response = await net.transport().send(request());
    expect(response.status).toBe(418);
    expect(response.body).toBe('teapot');
    expect(response.headers).toMatchObject({ 'x-thing': 'yes', 'retry-after': '7' });
    scope.done();
  });

  it('does not follow a redirect', async () => {
    const scope = nock(BASE).get('/thread').reply(302, '', { location: 'https://evil.example.test/x' });
    const response = await net.transport().send(request());
    expect(response).toMatchObject({ status: 302, headers: { location: 'https://evil.example.test/x' } });
    scope.done();
  });

  it('sends the method, headers and body it was given', async () => {
    const body = JSON.stringify({ a: 1 });
    const scope = nock(BASE, {
      reqheaders: { 'x-api-key': 'k', 'content-type': 'application/json', 'content-length': String(body.length) },
    })
      .post('/comment/t1', { a: 1 })
      .reply(201, '{}');
    const response = await net.transport().send(
      request({
        method: 'POST',
        url: new URL(`${BASE}/comment/t1`),
        headers: { 'x-api-key': 'k', 'content-type': 'application/json' },
        body,
      }),
    );
    expect(response.status).toBe(201);
    scope.done();
  });

  it('decodes UTF-8 split across chunks', async () => {
    const bytes = Buffer.from('{"text":"é🚀"}');
    const scope = nock(BASE)
      .get('/thread')
      .reply(200, () => Readable.from([...bytes].map((b) => Buffer.from([b]))));
    const response = await net.transport().send(request());
    expect(JSON.parse(response.body)).toEqual({ text: 'é🚀' });
    scope.done();
  });
});

describe('size limit', () => {
  it.each([
    [1_000, 1_000, 'ok'],
    [1_001, 1_000, 'refused'],
    [1_000_000, 65_536, 'refused'],
  ])('a body of %i bytes with a limit of %i is %s', async (size, limit, verdict) => {
    const scope = nock(BASE).get('/thread').reply(200, 'x'.repeat(size));
    const sent = net.transport().send(request({ maxBodyBytes: limit }));
    if (verdict === 'ok') expect((await sent).body).toHaveLength(size);
    else {
      const error = await failure(sent);
      expect(error).toBeInstanceOf(ResponseError);
      expect(error.message).toContain(`more than ${limit} bytes`);
    }
    scope.done();
  });
});

describe('timeouts: one deadline for connect, headers and body', () => {
  it.each([
    ['headers late', (s: nock.Interceptor) => s.delay(2_000)],
    ['connection late', (s: nock.Interceptor) => s.delayConnection(2_000)],
    ['body late', (s: nock.Interceptor) => s.delayBody(2_000)],
  ])('%s → TimeoutError naming the origin', async (_what, slow) => {
    const scope = slow(nock(BASE).get('/thread')).reply(200, '[]');
    const error = await failure(net.transport().send(request({ timeoutMs: 30 })));
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error.message).toBe('no complete answer from https://svc.example.test within 0.03 s');
    expect((error as TimeoutError).waitedMs).toBe(30);
    scope.done();
  });
});

describe('connection errors say whether the request certainly never left', () => {
  // nock raises these before the request is handed to a socket, so every one is "not sent" here; the
  // failures after sending need a real socket: test/http/node-transport-socket.test.ts.
  const cases: Array<string | undefined> = [
    'ECONNREFUSED',
    'EAI_AGAIN',
    'EHOSTUNREACH',
    'ECONNRESET',
    'EPIPE',
    undefined,
  ];
  it.each(cases)('%s before the request left → notSent, temporary, naming the origin', async (code) => {
    const scope = nock(BASE).get('/thread?limit=5&id=x').replyWithError(errno(code));
    const error = await failure(net.transport().send(request({ url: new URL(`${BASE}/thread?limit=5&id=x`) })));
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).notSent).toBe(true);
    expect((error as NetworkError).exitCode).toBe(EXIT.temporary);
    expect(error.message).toBe(`cannot reach https://svc.example.test (${code ?? `failed with ${code}`})`);
    expect((error as NetworkError).hint).toBe('check the network and try again later');
    scope.done();
  });

  it('a connection that breaks in the middle of the body is a NetworkError that may have been sent', async () => {
    const scope = nock(BASE)
      .get('/thread')
      .reply(200, () => {
        // Broken once the first chunk has been read, not after a delay: on a loaded machine a timer could
        // fire before nock read the body, and the error then reached no one (the run waited 5 s instead).
        let started = false;
        return new Readable({
          read() {
            if (started) this.destroy(new Error('boom'));
            else this.push('[{"id":');
            started = true;
          },
        });
      });
    const error = await failure(net.transport().send(request()));
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).notSent).toBe(false);
    scope.done();
  });
});

describe('an address or certificate that cannot work until it is changed is a setup problem, not "try later"', () => {
  const CHECK_ADDRESS = 'check the address given at registration (--base-url)';
  const PRIVATE_CA = "if the service uses a private CA, set NODE_EXTRA_CA_CERTS to that CA's certificate file";
  it.each([
    ['ENOTFOUND', 'the host name svc.example.test does not resolve', CHECK_ADDRESS],
    ['ERR_TLS_CERT_ALTNAME_INVALID', 'its TLS certificate is not for svc.example.test', CHECK_ADDRESS],
    ['DEPTH_ZERO_SELF_SIGNED_CERT', 'its TLS certificate is not trusted here', PRIVATE_CA],
    ['SELF_SIGNED_CERT_IN_CHAIN', 'its TLS certificate is not trusted here', PRIVATE_CA],
    ['UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'its TLS certificate is not trusted here', PRIVATE_CA],
    ['UNABLE_TO_GET_ISSUER_CERT_LOCALLY', 'its TLS certificate is not trusted here', PRIVATE_CA],
    [
      'CERT_HAS_EXPIRED',
      'its TLS certificate is not valid at this time',
      "check this machine's clock; if it is right, the service must renew its certificate",
    ],
  ])('%s → exit 1 naming the origin, with the fix', async (code, what, hint) => {
    const scope = nock(BASE).get('/thread').replyWithError(errno(code));
    const error = await failure(net.transport().send(request()));
    expect(error).toBeInstanceOf(ConnectionSetupError);
    expect((error as ConnectionSetupError).exitCode).toBe(EXIT.unexpected);
    expect(error.message).toBe(`cannot reach https://svc.example.test: ${what} (${code})`);
    expect((error as ConnectionSetupError).hint).toBe(hint);
    scope.done();
  });
});
