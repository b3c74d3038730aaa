import fs from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterEach, expect, it } from 'vitest';
import { BULLISH, createWorld, PROFILE_FLAGS, type World } from './harness.js';

// The real binary against an https service: the path every real user takes (https is loaded lazily, and
// the bundle runs inside vm.Script, where a native import() would throw; this test caught that).
const fixture = (name: string) => fileURLToPath(new URL(`../fixtures/${name}`, import.meta.url));

let world: World | undefined;
let front: https.Server | undefined;
afterEach(async () => {
  front?.closeAllConnections();
  await new Promise((resolve) => front?.close(resolve) ?? resolve(undefined));
  await world?.close();
});

/** The sandbox behind an https front with the test-only loopback certificate. */
async function httpsSandbox(host = '127.0.0.1'): Promise<{ sandbox: World['sandbox']; url: string }> {
  world = await createWorld();
  const sandbox = world.sandbox;
  front = https.createServer(
    { key: fs.readFileSync(fixture('loopback-key.pem')), cert: fs.readFileSync(fixture('loopback-cert.pem')) },
    (req, res) => sandbox.server.emit('request', req, res),
  );
  await new Promise<void>((resolve) => front!.listen(0, host, resolve));
  return { sandbox, url: `https://${host}:${(front.address() as AddressInfo).port}` };
}

it('registers and polls over https, sending the key only there', async () => {
  const { sandbox, url } = await httpsSandbox();
  const env = { NODE_EXTRA_CA_CERTS: fixture('loopback-cert.pem') };

  const registered = await world!.agent(['register', '--base-url', url, '--name', 'tls-agent', ...PROFILE_FLAGS], {
    env,
  });
  expect(registered.stderr).toBe('');
  expect(registered.code).toBe(0);
  expect(world!.state().baseUrl).toBe(url);

  sandbox.addThread({ id: 'tls', text: BULLISH, project_id: 'c/bitcoin', timestamp: new Date().toISOString() });
  const polled = await world!.agent(['poll', '--json'], { env });
  expect(polled.code).toBe(0);
  expect(JSON.parse(polled.stdout).posted.map((p: { threadId: string }) => p.threadId)).toEqual(['tls']);
  expect(
    sandbox.requests
      .filter((r) => r.headers['x-api-key'] !== undefined)
      .every((r) => r.headers['x-api-key'] === world!.state().apiKey),
  ).toBe(true);
});

// Trying again later cannot fix a certificate: these are setup problems (exit 1), each with its fix.
it('refuses a certificate it cannot verify, with exit 1, the fix, and nothing sent', async () => {
  const { sandbox, url } = await httpsSandbox();
  const result = await world!.agent(['register', '--base-url', url, '--name', 'tls-agent', ...PROFILE_FLAGS]);
  expect(result.code).toBe(1);
  expect(result.stderr).toBe(
    `agent: cannot reach ${url}: its TLS certificate is not trusted here (DEPTH_ZERO_SELF_SIGNED_CERT) (if the service uses a private CA, set NODE_EXTRA_CA_CERTS to that CA's certificate file)\n`,
  );
  expect(sandbox.requests).toHaveLength(0);
});

it('refuses a trusted certificate made for another name, with exit 1 and the address to check', async () => {
  // The test certificate names 127.0.0.1 and localhost; 127.0.0.2 is loopback too, but not in it.
  const { sandbox, url } = await httpsSandbox('127.0.0.2');
  const env = { NODE_EXTRA_CA_CERTS: fixture('loopback-cert.pem') };
  const result = await world!.agent(['register', '--base-url', url, '--name', 'tls-agent', ...PROFILE_FLAGS], { env });
  expect(result.code).toBe(1);
  expect(result.stderr).toBe(
    `agent: cannot reach ${url}: its TLS certificate is not for 127.0.0.2 (ERR_TLS_CERT_ALTNAME_INVALID) (check the address given at registration (--base-url))\n`,
  );
  expect(sandbox.requests).toHaveLength(0);
});

it('refuses to register while NODE_TLS_REJECT_UNAUTHORIZED=0 turns certificate checks off, sending nothing', async () => {
  const { sandbox, url } = await httpsSandbox();
  const result = await world!.agent(['register', '--base-url', url, '--name', 'tls-agent', ...PROFILE_FLAGS], {
    env: { NODE_TLS_REJECT_UNAUTHORIZED: '0' },
  });
  expect(result.code).toBe(2);
  expect(result.stderr).toContain('NODE_TLS_REJECT_UNAUTHORIZED=0 turns off certificate checks');
  expect(result.stderr).toContain('NODE_EXTRA_CA_CERTS');
  expect(sandbox.requests).toHaveLength(0);
  expect(fs.existsSync(world!.configDir)).toBe(false);
});

it.each([
  ['poll', ['poll']],
  ['poll --dry-run', ['poll', '--dry-run']],
  ['me', ['me']],
  ['update', ['update', '--bio', 'a new bio']],
  ['predict', ['predict', 'tls', '--conviction', '1']],
])('%s refuses to send the key while NODE_TLS_REJECT_UNAUTHORIZED=0', async (_what, args) => {
  const { sandbox, url } = await httpsSandbox();
  const ca = { NODE_EXTRA_CA_CERTS: fixture('loopback-cert.pem') };
  expect(
    (await world!.agent(['register', '--base-url', url, '--name', 'tls-agent', ...PROFILE_FLAGS], { env: ca })).code,
  ).toBe(0);
  sandbox.addThread({ id: 'tls', text: BULLISH, project_id: 'c/bitcoin', timestamp: new Date().toISOString() });
  const before = sandbox.requests.length;
  const result = await world!.agent(args, { env: { ...ca, NODE_TLS_REJECT_UNAUTHORIZED: '0' } });
  expect(result.code).toBe(2);
  expect(result.stderr).toContain('NODE_TLS_REJECT_UNAUTHORIZED');
  expect(sandbox.requests).toHaveLength(before);
});
