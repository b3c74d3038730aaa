import nock from 'nock';
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import { createNodeTransport } from '../../src/http/node-transport.js';
import type { Transport } from '../../src/http/transport.js';

/**
 * The network is off; every request must match an interceptor and every interceptor must be used
 * (the shape of gh's httpmock Verify). Also hands out the real node:http transport, closed after each test.
 */
export function useNock(): { transport(): Transport; unmatched: string[] } {
  const unmatched: string[] = [];
  let transport: Transport | undefined;
  const onNoMatch = (req: { method?: string; href?: string; path?: string }) => {
    unmatched.push(`${req.method ?? '?'} ${req.href ?? req.path ?? String(req)}`);
  };
  // node:http is shared by the whole worker process: leave it as it was found for other test files.
  beforeAll(() => {
    if (!nock.isActive()) nock.activate();
  });
  afterAll(() => {
    nock.enableNetConnect();
    nock.restore();
  });
  beforeEach(() => {
    nock.disableNetConnect();
    unmatched.length = 0;
    nock.emitter.on('no match', onNoMatch);
  });
  afterEach(() => {
    nock.emitter.removeListener('no match', onNoMatch);
    transport?.close();
    transport = undefined;
    const pending = nock.pendingMocks();
    nock.abortPendingRequests();
    nock.cleanAll();
    expect(unmatched, 'requests nobody expected').toEqual([]);
    expect(pending, 'interceptors never used').toEqual([]);
  });
  return {
    unmatched,
    transport: () => (transport ??= createNodeTransport()),
  };
}
