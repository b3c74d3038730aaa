import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Context } from '../src/context.js';
import { openSession } from '../src/session.js';
import { EXIT, NotRegisteredError, StateError, UsageError } from '../src/errors.js';
import type { HttpRequest, Transport } from '../src/http/transport.js';
import { createStateStore } from '../src/state/state-store.js';
import { makeOutput } from './support/streams.js';
import { fakeTiming } from './support/timing.js';
import { thrown } from './support/failure.js';

// openSession: the state decides where the key may go, before any socket is opened (key-origin-only, key-at-rest).

const KEY = 'hive_0123456789abcdefSECRETKEY';
let root: string;
let sent: HttpRequest[];
let transports: number;

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-ctx-'));
  sent = [];
  transports = 0;
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

function context(baseUrl?: string) {
  const { output, stderr, stdout } = makeOutput();
  const transport: Transport = {
    async send(request) {
      sent.push(request);
      return { status: 200, headers: {}, body: JSON.stringify({ id: 'a', name: 'bot' }) };
    },
    close() {},
  };
  const ctx: Context = {
    output,
    env: {},
    configDir: path.join(root, 'config'),
    baseUrl,
    timing: fakeTiming(),
    pid: 4242,
    transport: () => {
      transports += 1;
      return transport;
    },
  };
  return { ctx, stderr, stdout };
}

function register(baseUrl = 'https://svc.example.test') {
  createStateStore(path.join(root, 'config')).write({ apiKey: KEY, agentName: 'bot', cursor: null, baseUrl });
}

describe('openSession', () => {
  it('without a registered agent: NotRegisteredError (exit 3), no transport', () => {
    const error = thrown(() => openSession(context().ctx));
    expect(error).toBeInstanceOf(NotRegisteredError);
    expect((error as NotRegisteredError).exitCode).toBe(EXIT.notRegistered);
    expect((error as NotRegisteredError).hint).toBe('run "agent register" first');
    expect(transports).toBe(0);
  });

  it('binds the key to the stored origin and masks it from then on', async () => {
    register('https://svc.example.test/api');
    const { ctx } = context();
    const session = openSession(ctx);
    expect(ctx.output.redact(`x ${KEY}`)).toBe('x hive_…TKEY');
    await session.api.me();
    expect(sent).toHaveLength(1);
    expect(sent[0]!.url.href).toBe('https://svc.example.test/api/agent/me');
    expect(sent[0]!.headers['x-api-key']).toBe(KEY);
  });

  it.each(['https://svc.example.test', 'https://svc.example.test/', 'HTTPS://SVC.example.test'])(
    'accepts --base-url %j naming the same service',
    (given) => {
      register();
      expect(() => openSession(context(given).ctx)).not.toThrow();
    },
  );

  it.each(['https://other.example.test', 'https://svc.example.test/v2', 'http://127.0.0.1:8080'])(
    'refuses --base-url %j: the key is never sent elsewhere',
    (given) => {
      register();
      const error = thrown(() => openSession(context(given).ctx));
      expect(error).toBeInstanceOf(UsageError);
      expect(error.message).toContain('its key is never sent elsewhere');
      expect(error.message).not.toContain(KEY);
      expect(transports).toBe(0);
    },
  );

  it('refuses a stored plain-http address that is not loopback', () => {
    register('http://svc.example.test');
    expect(thrown(() => openSession(context().ctx))).toBeInstanceOf(UsageError);
    expect(transports).toBe(0);
  });

  it('refuses an exposed state dir before any transport exists', () => {
    register();
    fs.chmodSync(path.join(root, 'config'), 0o755);
    expect(thrown(() => openSession(context().ctx))).toBeInstanceOf(StateError);
    expect(transports).toBe(0);
  });
});
