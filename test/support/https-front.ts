import fs from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { RunningSandbox } from '../../src/sandbox/index.js';

export const fixture = (name: string) => fileURLToPath(new URL(`../fixtures/${name}`, import.meta.url));

/** The sandbox behind an https front with the test-only loopback certificate (NODE_EXTRA_CA_CERTS trusts it). */
export async function httpsFront(
  sandbox: RunningSandbox,
): Promise<{ url: string; caFile: string; close(): Promise<void> }> {
  const front = https.createServer(
    { key: fs.readFileSync(fixture('loopback-key.pem')), cert: fs.readFileSync(fixture('loopback-cert.pem')) },
    (req, res) => sandbox.server.emit('request', req, res),
  );
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
  return {
    url: `https://127.0.0.1:${(front.address() as AddressInfo).port}`,
    caFile: fixture('loopback-cert.pem'),
    close: () =>
      new Promise((resolve) => {
        front.closeAllConnections();
        front.close(() => resolve());
      }),
  };
}
