import { httpsProxyOf, type ProxyEnv } from './proxy-env.js';
import type { Transport } from './transport.js';

/**
 * The transport every command is given, and the one place that chooses how a request leaves: an https
 * request through HTTPS_PROXY when one is set (proxy-transport.ts says why undici, and why never plain
 * http), otherwise direct. node:http is loaded on the first request, not at start-up: `--version`,
 * `--help` and usage errors never need it.
 */
export function lazyTransport(env: ProxyEnv): Transport {
  let direct: Transport | undefined;
  let proxied: Promise<Transport> | undefined;
  return {
    async send(request) {
      if (request.url.protocol === 'https:' && httpsProxyOf(env)) {
        proxied ??= import('./proxy-transport.js').then(({ createProxyTransport }) => createProxyTransport(env));
        return (await proxied).send(request);
      }
      direct ??= (await import('./node-transport.js')).createNodeTransport();
      return direct.send(request);
    },
    close() {
      direct?.close();
      void proxied?.then((transport) => transport.close());
    },
  };
}
