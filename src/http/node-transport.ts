import { Agent, request as httpRequest } from 'node:http';
import type https from 'node:https';
import { ConnectionSetupError, NetworkError, ResponseError, TimeoutError } from '../errors.js';
import { isLoopbackHost } from './origin.js';
import type { HttpRequest, HttpResponse, Transport } from './transport.js';

// Errors raised before a single byte could have reached the server: a POST that failed this way is
// safe to try again. Anything else after connecting leaves the outcome unknown.
export const NOT_SENT = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
]);

/**
 * Node's own http/https: the cheapest way to talk to the service on every cron run (docs/performance.md).
 * `https` (and with it tls) is loaded only for an https address: a loopback service never pays for it.
 */
export function createNodeTransport(): Transport {
  const httpAgent = new Agent({ keepAlive: true, maxSockets: 4 });
  let secure: { request: typeof https.request; agent: https.Agent } | undefined;

  async function send(request: HttpRequest): Promise<HttpResponse> {
    const { url } = request;
    if (url.protocol === 'https:') {
      if (!secure) {
        const { Agent: SecureAgent, request } = await import('node:https');
        secure = { request, agent: new SecureAgent({ keepAlive: true, maxSockets: 4 }) };
      }
    }
    const { request: makeRequest, agent: keptAlive } =
      url.protocol === 'https:' && secure ? secure : { request: httpRequest, agent: httpAgent };
    // A write is sent on a connection of its own. A kept-alive socket may have been closed by the service
    // while this process was busy and had not yet read the close; a POST sent on it is reset, and its
    // outcome is unknown, so the prediction would be lost. A read on such a socket is simply tried again.
    const agent = request.method === 'GET' ? keptAlive : false;
    return new Promise<HttpResponse>((resolve, reject) => {
      let settled = false;
      // Until the connection is up (TLS handshake included) and the whole request is handed to it, the
      // service cannot have it all, so cannot have acted on it: a failure before that (TLS, connect
      // timeout) is safe to retry, even for a POST. ('finish' alone fires before a TLS handshake.)
      let connected = false;
      let finished = false;
      const sent = () => connected && finished;
      const finish = (...[error, response]: [Error] | [undefined, HttpResponse]) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        if (response) resolve(response);
        else {
          req.destroy();
          reject(error);
        }
      };
      const req = makeRequest(url, { method: request.method, headers: request.headers, agent }, (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > request.maxBodyBytes) {
            res.destroy();
            finish(new ResponseError(`the service sent more than ${request.maxBodyBytes} bytes; refused`));
            return;
          }
          chunks.push(chunk);
        });
        res.on('end', () =>
          finish(undefined, {
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        res.on('error', (error) => finish(networkError(error, false, url)));
        // After 'end' this is a no-op; before it, the server hung up mid-answer.
        res.on('close', () => finish(new NetworkError('the connection closed before the answer was complete', false)));
      });
      const timer = setTimeout(
        () =>
          finish(
            new TimeoutError(`no complete answer from ${url.origin} within ${request.timeoutMs / 1000} s`, !sent(), {
              hint: 'try again later',
              waitedMs: request.timeoutMs,
            }),
          ),
        request.timeoutMs,
      );
      req.on('socket', (socket) => {
        // A kept-alive socket is connected already; a new one says so when it is (after TLS, for https).
        if (!socket.connecting && !(url.protocol === 'https:' && !(socket as import('node:tls').TLSSocket).encrypted))
          connected = true;
        else socket.once(url.protocol === 'https:' ? 'secureConnect' : 'connect', () => (connected = true));
      });
      req.on('finish', () => (finished = true));
      req.on('error', (error) =>
        finish(networkError(error, !sent() || NOT_SENT.has((error as NodeJS.ErrnoException).code ?? ''), url)),
      );
      req.end(request.body);
    });
  }

  return {
    send,
    close() {
      httpAgent.destroy();
      secure?.agent.destroy();
    },
  };
}

// OpenSSL's verdicts on a certificate chain that does not lead to a CA this machine trusts.
const UNTRUSTED = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_UNTRUSTED',
  'CERT_SIGNATURE_FAILURE',
]);
const CHECK_ADDRESS = 'check the address given at registration (--base-url)';

/**
 * Names the origin (never the path or query, and so never anything secret) and tells a network that is
 * down, which passes, from an address or a certificate that cannot work until someone changes it.
 */
export function networkError(error: Error, notSent: boolean, url: URL): NetworkError | ConnectionSetupError {
  const code = (error as NodeJS.ErrnoException).code;
  const origin = url.origin;
  if (code === 'ENOTFOUND') {
    return new ConnectionSetupError(
      `cannot reach ${origin}: the host name ${url.hostname} does not resolve (${code})`,
      { hint: CHECK_ADDRESS },
    );
  }
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') {
    return new ConnectionSetupError(
      `cannot reach ${origin}: its TLS certificate is not for ${url.hostname} (${code})`,
      { hint: CHECK_ADDRESS },
    );
  }
  if (code !== undefined && UNTRUSTED.has(code)) {
    return new ConnectionSetupError(`cannot reach ${origin}: its TLS certificate is not trusted here (${code})`, {
      hint: "if the service uses a private CA, set NODE_EXTRA_CA_CERTS to that CA's certificate file",
    });
  }
  if (code === 'ECONNREFUSED' && isLoopbackHost(url.hostname)) {
    // On this machine a refusal means the service is not running there (or on another port), not a network down.
    return new NetworkError(`nothing listens on ${hostPort(url)}: is the service running? (${code})`, notSent, {
      hint: 'start it, or check the port in the address',
    });
  }
  if (code === 'EPROTO' && /wrong version number/i.test(error.message)) {
    return new NetworkError(`cannot reach ${origin}: that port speaks plain http, not https (${code})`, notSent, {
      hint: isLoopbackHost(url.hostname) ? `use http://${url.host}` : CHECK_ADDRESS,
    });
  }
  if (code === 'CERT_HAS_EXPIRED' || code === 'CERT_NOT_YET_VALID') {
    return new ConnectionSetupError(`cannot reach ${origin}: its TLS certificate is not valid at this time (${code})`, {
      hint: "check this machine's clock; if it is right, the service must renew its certificate",
    });
  }
  return new NetworkError(`cannot reach ${origin} (${code ?? error.message})`, notSent, {
    hint: 'check the network and try again later',
  });
}

/** `127.0.0.1:37148`, with the scheme's port when the address names none. */
function hostPort(url: URL): string {
  return url.port ? url.host : `${url.host}:${url.protocol === 'https:' ? 443 : 80}`;
}
