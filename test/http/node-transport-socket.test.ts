import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { mayHaveLanded, NetworkError, TimeoutError } from '../../src/errors.js';
import { createNodeTransport } from '../../src/http/node-transport.js';
import type { HttpRequest, Transport } from '../../src/http/transport.js';
import { failure } from '../support/failure.js';

// Whether a failed POST may have reached the service decides between "try again" (no-thread-lost) and "never again"
// (never-twice). nock cannot say when a request left, so these use real sockets on loopback.

let server: net.Server | undefined;
let transport: Transport | undefined;
const sockets = new Set<net.Socket>();
afterEach(async () => {
  transport?.close();
  for (const socket of sockets) socket.destroy();
  sockets.clear();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  server = undefined;
});

async function listen(onConnection: (socket: net.Socket) => void): Promise<string> {
  server = net.createServer((socket) => {
    sockets.add(socket);
    onConnection(socket);
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function post(base: string, timeoutMs = 2_000): HttpRequest {
  return {
    method: 'POST',
    url: new URL(`${base}/comment/t1`),
    headers: { 'content-type': 'application/json' },
    body: '{"text":"x"}',
    timeoutMs,
    maxBodyBytes: 10_000,
  };
}

describe('a POST that failed after it was sent may have landed', () => {
  it('the connection is reset once the service has read the request', async () => {
    const base = await listen((socket) => socket.once('data', () => socket.resetAndDestroy()));
    transport = createNodeTransport();
    const error = await failure(transport.send(post(base)));
    expect(error).toBeInstanceOf(NetworkError);
    expect(mayHaveLanded(error)).toBe(true);
  });

  it('no answer comes back in time', async () => {
    const base = await listen((socket) => socket.on('data', () => {}));
    transport = createNodeTransport();
    const error = await failure(transport.send(post(base, 200)));
    expect(error).toBeInstanceOf(TimeoutError);
    expect(mayHaveLanded(error)).toBe(true);
  });
});

describe('a POST that failed before it was sent did not land', () => {
  it('the connection is refused', async () => {
    const base = await listen(() => {});
    await new Promise((resolve) => server!.close(resolve));
    server = undefined;
    transport = createNodeTransport();
    const error = await failure(transport.send(post(base)));
    expect(mayHaveLanded(error)).toBe(false);
  });

  it('the TLS handshake fails (not an https server)', async () => {
    const base = await listen((socket) => socket.end('HTTP/1.1 400 Bad Request\r\n\r\n'));
    transport = createNodeTransport();
    const error = await failure(transport.send(post(base.replace('http:', 'https:'))));
    expect(error).toBeInstanceOf(NetworkError);
    expect(mayHaveLanded(error)).toBe(false);
  });

  it('a server that never completes the handshake', async () => {
    const tlsLike = await listen(() => {}); // accepts, then says nothing: the TLS hello is never answered
    transport = createNodeTransport();
    const error = await failure(transport.send(post(tlsLike.replace('http:', 'https:'), 200)));
    expect(error).toBeInstanceOf(TimeoutError);
    expect(mayHaveLanded(error)).toBe(false);
  });
});

describe('a kept-alive connection the service has closed', () => {
  // The service closes an idle connection when it likes; a client whose event loop was busy (parsing a
  // long page of threads, on a loaded machine) has not yet seen that close when it sends the next request.
  // A POST sent on that socket is reset, and its outcome is unknown: the prediction would be lost.
  async function keepAliveService(seen: string[]): Promise<string> {
    return listen((socket) =>
      socket.on('data', (chunk: Buffer) => {
        seen.push(chunk.toString('latin1').split(' ')[0]!);
        socket.write('HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: keep-alive\r\n\r\n{}');
      }),
    );
  }

  it('is never where a POST goes: it opens its own, and lands once', async () => {
    const seen: string[] = [];
    const base = await keepAliveService(seen);
    transport = createNodeTransport();
    const get = { ...post(base), method: 'GET' as const, body: undefined };
    expect((await transport.send(get)).status).toBe(200);
    for (const socket of sockets) socket.destroy(); // the service closes the idle connection…
    const response = await transport.send(post(base)); // …before this client has read the close
    expect(response.status).toBe(200);
    expect(seen).toEqual(['GET', 'POST']);
  });
});

it('an answer read in full is returned whatever the status', async () => {
  const httpServer = http.createServer((_req, res) => res.writeHead(201).end('{}'));
  server = httpServer;
  await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
  transport = createNodeTransport();
  const response = await transport.send(post(`http://127.0.0.1:${(httpServer.address() as AddressInfo).port}`));
  expect(response.status).toBe(201);
});
