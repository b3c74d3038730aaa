import type { Dispatcher } from 'undici';
import { type ConnectionSetupError, NetworkError, ResponseError, TimeoutError } from '../errors.js';
import { networkError, NOT_SENT } from './node-transport.js';
import { httpsProxyOf, type ProxyEnv } from './proxy-env.js';
import type { HttpRequest, HttpResponse, Transport } from './transport.js';

// A CONNECT the proxy refused, or a tunnel that never came up: nothing reached the service.
const TUNNEL_FAILED = /^Proxy response \((\d+)\) !== 200 when HTTP Tunneling$/;
const NOT_SENT_HERE = new Set([...NOT_SENT, 'UND_ERR_CONNECT_TIMEOUT']);
// A handshake that failed (a certificate not trusted, expired, for another name) sent nothing either.
const TLS_FAILED = /CERT|SELF_SIGNED|UNABLE_TO_|^ERR_TLS_|^ERR_SSL_/;

/**
 * The service through an https proxy (HTTPS_PROXY, honouring NO_PROXY), with undici: Node 20's own
 * https ignores proxy variables. The key travels inside the CONNECT tunnel to the service's origin, so the
 * proxy sees the host name and port only. Plain http never comes here: it is allowed to loopback only, and
 * through a proxy the key would travel in the clear. Loaded only when a proxy is set, because undici
 * costs ~110 ms to load. Same promises as the node:http transport: no redirect followed, one deadline,
 * a capped body, and a failure says whether the request can have reached the service.
 */
export async function createProxyTransport(env: ProxyEnv): Promise<Transport> {
  const undici = await import('undici');
  const dispatcher: Dispatcher = new undici.EnvHttpProxyAgent({
    httpsProxy: httpsProxyOf(env),
    noProxy: env.no_proxy || env.NO_PROXY || '',
  });

  async function send(request: HttpRequest): Promise<HttpResponse> {
    const { url } = request;
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, request.timeoutMs);
    try {
      const response = await undici.request(url, {
        method: request.method,
        headers: request.headers,
        body: request.body,
        dispatcher,
        signal: controller.signal,
        headersTimeout: request.timeoutMs,
        bodyTimeout: request.timeoutMs,
      });
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of response.body) {
        size += (chunk as Buffer).length;
        if (size > request.maxBodyBytes) {
          response.body.destroy();
          throw new ResponseError(`the service sent more than ${request.maxBodyBytes} bytes; refused`);
        }
        chunks.push(chunk as Buffer);
      }
      return { status: response.statusCode, headers: response.headers, body: Buffer.concat(chunks).toString('utf8') };
    } catch (error) {
      if (error instanceof ResponseError) throw error;
      // Whether the request was on its way when time ran out is not known here: it may have landed.
      if (timedOut)
        throw new TimeoutError(`no complete answer from ${url.host} within ${request.timeoutMs / 1000} s`, false);
      throw proxyNetworkError(error, url);
    } finally {
      clearTimeout(timer);
    }
  }

  return {
    send,
    close: () => void dispatcher.close().catch(() => undefined),
  };
}

// Only the code, or undici's fixed tunnel message: undici's other messages can quote the proxy's URL, and
// with it the user:password that HTTPS_PROXY may carry.
function proxyNetworkError(error: unknown, url: URL): NetworkError | ConnectionSetupError {
  const code = (error as { code?: unknown }).code;
  const message = error instanceof Error ? error.message : '';
  // TLS runs end to end inside the tunnel: a certificate problem is the service's, said as without a proxy.
  if (typeof code === 'string' && TLS_FAILED.test(code)) return networkError(error as Error, true, url);
  const refused = TUNNEL_FAILED.exec(message);
  if (refused) {
    return new NetworkError(`the proxy refused the tunnel to ${url.origin} (${refused[1]})`, true, {
      hint: 'check HTTPS_PROXY, or list the service in NO_PROXY',
    });
  }
  const what = typeof code === 'string' ? code : 'network error';
  return new NetworkError(
    `cannot reach ${url.origin} through the proxy (${what})`,
    typeof code === 'string' && NOT_SENT_HERE.has(code),
    {
      hint: 'check the network and HTTPS_PROXY, and try again later',
    },
  );
}
