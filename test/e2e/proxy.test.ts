// The service behind HTTPS_PROXY: the real binary through a recording CONNECT proxy and through tinyproxy.
import os from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { decisionReply, startFakeLlm } from '../support/fake-llm.js';
import { startRecordingProxy, type RecordingProxy } from '../support/connect-proxy.js';
import { httpsFront } from '../support/https-front.js';
import { hasTinyproxy, startTinyproxy } from '../support/tinyproxy.js';
import { BULLISH, createWorld, PROFILE_FLAGS, type World } from './harness.js';

let world: World | undefined;
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
  await world?.close();
  world = undefined;
});

async function httpsWorld() {
  world = await createWorld();
  const front = await httpsFront(world.sandbox);
  closers.push(front.close);
  return { w: world, url: front.url, env: { NODE_EXTRA_CA_CERTS: front.caFile } };
}

async function recordingProxy(options: { refuse?: number } = {}): Promise<RecordingProxy> {
  const proxy = await startRecordingProxy(options);
  closers.push(proxy.close);
  return proxy;
}

const hostOf = (url: string) => new URL(url).host;
/** An address of this machine that is not loopback: a model there is reached through the proxy. */
const outsideAddress = Object.values(os.networkInterfaces())
  .flat()
  .find((info) => info && info.family === 'IPv4' && !info.internal)?.address;

describe('HTTPS_PROXY', () => {
  it('register, poll and me go through the tunnel; the proxy reads the service address, never the key', async () => {
    const { w, url, env } = await httpsWorld();
    const proxy = await recordingProxy();
    const via = { ...env, HTTPS_PROXY: proxy.url };
    expect(
      (await w.agent(['register', '--base-url', url, '--name', 'proxied', ...PROFILE_FLAGS], { env: via })).code,
    ).toBe(0);
    w.sandbox.addThread({
      id: 'p',
      text: BULLISH,
      citations: [],
      project_id: 'c/bitcoin',
      timestamp: new Date().toISOString(),
    });
    const polled = await w.agent(['poll', '--json'], { env: via });
    expect(polled.code, polled.stderr).toBe(0);
    expect(JSON.parse(polled.stdout).posted).toEqual([expect.objectContaining({ threadId: 'p' })]);
    expect((await w.agent(['me'], { env: via })).code).toBe(0);

    expect(proxy.tunnels.length).toBeGreaterThanOrEqual(3);
    expect(new Set(proxy.tunnels)).toEqual(new Set([hostOf(url)]));
    const key = w.state().apiKey;
    for (const head of proxy.heads) {
      expect(head).toMatch(/^CONNECT /);
      expect(head).not.toContain(key);
      expect(head.toLowerCase()).not.toContain('x-api-key');
    }
  });

  it('NO_PROXY and lower-case no_proxy send the service direct', async () => {
    const { w, url, env } = await httpsWorld();
    const proxy = await recordingProxy();
    expect(
      (
        await w.agent(['register', '--base-url', url, '--name', 'direct', ...PROFILE_FLAGS], {
          env: { ...env, HTTPS_PROXY: proxy.url, NO_PROXY: '127.0.0.1' },
        })
      ).code,
    ).toBe(0);
    expect((await w.agent(['poll'], { env: { ...env, https_proxy: proxy.url, no_proxy: '127.0.0.1' } })).code).toBe(0);
    expect(proxy.heads).toEqual([]);
    expect(w.sandbox.requests.length).toBeGreaterThanOrEqual(2);
  });

  it('a plain-http (loopback) service never goes through the proxy', async () => {
    world = await createWorld();
    const proxy = await recordingProxy();
    expect((await world.register('plain', [])).code).toBe(0);
    expect((await world.agent(['poll'], { env: { HTTPS_PROXY: proxy.url, HTTP_PROXY: proxy.url } })).code).toBe(0);
    expect(proxy.heads).toEqual([]);
  });

  it('a proxy that refuses the tunnel: exit 5, says so, and the service saw nothing', async () => {
    const { w, url, env } = await httpsWorld();
    const proxy = await recordingProxy({ refuse: 403 });
    const result = await w.agent(['register', '--base-url', url, '--name', 'refused', ...PROFILE_FLAGS], {
      env: { ...env, HTTPS_PROXY: proxy.url },
    });
    expect(result.code).toBe(5);
    expect(result.stderr).toContain(`the proxy refused the tunnel to ${url} (403)`);
    expect(w.sandbox.requests).toHaveLength(0);
  });

  it('a proxy address with a password is never printed, even when the proxy is down', async () => {
    const { w, url, env } = await httpsWorld();
    const result = await w.agent(['register', '--base-url', url, '--name', 'down', ...PROFILE_FLAGS], {
      env: { ...env, HTTPS_PROXY: 'http://user:s3cret-pass@127.0.0.1:9' },
    });
    expect(result.code).toBe(5);
    expect(result.stderr).toContain(`cannot reach ${url} through the proxy (ECONNREFUSED)`);
    expect(result.stderr).not.toContain('s3cret-pass');
  });

  it.skipIf(!hasTinyproxy && !process.env.CI)('works through a real proxy (tinyproxy): register and poll', async () => {
    const { w, url, env } = await httpsWorld();
    const proxy = await startTinyproxy();
    closers.push(proxy.close);
    const via = { ...env, HTTPS_PROXY: proxy.url };
    expect(
      (await w.agent(['register', '--base-url', url, '--name', 'tiny', ...PROFILE_FLAGS], { env: via })).code,
    ).toBe(0);
    w.sandbox.addThread({
      id: 'a',
      text: BULLISH,
      citations: [],
      project_id: 'c/bitcoin',
      timestamp: new Date().toISOString(),
    });
    w.sandbox.addThread({
      id: 'b',
      text: BULLISH,
      citations: [],
      project_id: 'c/bitcoin',
      timestamp: new Date().toISOString(),
    });
    expect((await w.agent(['poll', '--json'], { env: via })).code).toBe(0);
    expect(
      w.sandbox
        .comments()
        .map((c) => c.thread_id)
        .sort(),
    ).toEqual(['a', 'b']);
    expect(proxy.log()).toContain(`CONNECT`);
    expect(proxy.log()).toContain(hostOf(url).split(':')[1]);
  });

  it.skipIf((!hasTinyproxy && !process.env.CI) || !outsideAddress)(
    'a model on another address goes through tinyproxy too (HTTP_PROXY)',
    async () => {
      const { w, url, env } = await httpsWorld();
      const proxy = await startTinyproxy();
      closers.push(proxy.close);
      const llm = await startFakeLlm('/v1', outsideAddress);
      closers.push(llm.close);
      llm.reply(
        decisionReply({
          action: 'post',
          conviction: 1,
          text: 'Bullish on c/bitcoin: ETF inflows at a record, whales withdrawing.',
          reason: '',
        }),
      );
      const via = { ...env, HTTPS_PROXY: proxy.url, HTTP_PROXY: proxy.url };
      expect(
        (await w.agent(['register', '--base-url', url, '--name', 'tiny-llm', ...PROFILE_FLAGS], { env: via })).code,
      ).toBe(0);
      for (const [key, value] of [
        ['llm.base-url', llm.baseUrl],
        ['llm.model', 'test-model'],
        ['analyzer', 'llm'],
      ]) {
        expect((await w.agent(['config', 'set', key!, value!])).code).toBe(0);
      }
      w.sandbox.addThread({
        id: 'm',
        text: BULLISH,
        citations: [],
        project_id: 'c/bitcoin',
        timestamp: new Date().toISOString(),
      });
      const polled = await w.agent(['poll', '--json'], { env: via });
      expect(polled.code, polled.stderr).toBe(0);
      expect(JSON.parse(polled.stdout).posted).toEqual([expect.objectContaining({ threadId: 'm' })]);
      expect(llm.requests).toHaveLength(1);
      // undici tunnels plain http too (CONNECT), so tinyproxy's log, not a Via header, shows the way it went.
      const tunnel = `CONNECT ${new URL(llm.origin).host}`;
      for (let i = 0; i < 40 && !proxy.log().includes(tunnel); i++)
        await new Promise((resolve) => setTimeout(resolve, 50));
      expect(proxy.log()).toContain(tunnel);
    },
  );

  it('a certificate the service should not have is said as without a proxy: exit 1, the fix, nothing sent', async () => {
    const { w, url } = await httpsWorld();
    const proxy = await recordingProxy();
    // No NODE_EXTRA_CA_CERTS: the test certificate is not trusted.
    const result = await w.agent(['register', '--base-url', url, '--name', 'untrusted', ...PROFILE_FLAGS], {
      env: { HTTPS_PROXY: proxy.url },
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`cannot reach ${url}: its TLS certificate is not trusted here`);
    expect(proxy.tunnels).toEqual([hostOf(url)]);
    expect(w.sandbox.requests).toHaveLength(0);
  });
});
