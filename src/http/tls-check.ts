import { UsageError } from '../errors.js';

/**
 * With NODE_TLS_REJECT_UNAUTHORIZED=0 in the environment, Node accepts any certificate on every TLS
 * connection: whoever sits on the path could pose as the service and take the key, or, at registration,
 * hand out an identity the real service never issued. Refused before anything is sent. (Node turns the
 * checks off for the exact value "0" only.)
 */
export function refuseUnverifiedTls(baseUrl: URL, env: Record<string, string | undefined>, what: string): void {
  if (baseUrl.protocol !== 'https:' || env.NODE_TLS_REJECT_UNAUTHORIZED !== '0') return;
  throw new UsageError(
    `NODE_TLS_REJECT_UNAUTHORIZED=0 turns off certificate checks, so ${what} could go to whoever poses as ${baseUrl.host}; nothing was sent`,
    {
      hint: 'unset NODE_TLS_REJECT_UNAUTHORIZED; for a service with a private CA, set NODE_EXTRA_CA_CERTS=<its CA certificate file> instead',
    },
  );
}
