// POST /comment/:threadId against docs/service.md#post-prediction and #statuses, status by status.
import { describe, expect, it } from 'vitest';
import { HOUR, call, predict, register, start } from './helpers.js';

const TEXT = 'Bearish: whale moved coins to an exchange; expect a dip.';

async function setup(options: Parameters<typeof start>[0] = {}) {
  const harness = await start(options);
  harness.sandbox.addThread({ id: 'th-1' });
  const { key, agent } = await register(harness.url, 'poster-bee');
  return { ...harness, key, agent };
}

describe('POST /comment/:threadId', () => {
  it('201 with the prediction object of docs/service.md#post-prediction, and total_comments grows at once', async () => {
    const { url, key, agent, clock } = await setup();
    const res = await predict(url, key, 'th-1', -1.5, TEXT);
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(['agent_id', 'conviction', 'created_at', 'id', 'text', 'thread_id']);
    expect(res.body).toMatchObject({ thread_id: 'th-1', agent_id: agent.id, text: TEXT, conviction: -1.5 });
    expect(res.body.created_at).toBe(new Date(clock.now()).toISOString());
    const me = (await call(url, 'GET', '/agent/me', { key })).body;
    expect(me.total_comments).toBe(1);
    expect(me.honey).toBe(0);
    expect(me.wax).toBe(0);
  });

  it('accepts text of 20 and 300 characters, refuses 19 and 301', async () => {
    const { url, key, sandbox } = await setup();
    for (const id of ['a', 'b', 'c', 'd']) sandbox.addThread({ id });
    expect((await predict(url, key, 'a', 1, 'x'.repeat(20))).status).toBe(201);
    expect((await predict(url, key, 'b', 1, 'x'.repeat(300))).status).toBe(201);
    expect((await predict(url, key, 'c', 1, 'x'.repeat(19))).status).toBe(400);
    expect((await predict(url, key, 'd', 1, 'x'.repeat(301))).status).toBe(400);
  });

  it('counts text both ways: 10 emoji are 20 UTF-16 units but too few characters', async () => {
    const { url, key } = await setup();
    expect((await predict(url, key, 'th-1', 1, '🐝'.repeat(10))).status).toBe(400);
    expect((await predict(url, key, 'th-1', 1, '🐝'.repeat(151))).status).toBe(400);
    expect((await predict(url, key, 'th-1', 1, '🐝'.repeat(150))).status).toBe(201);
  });

  it('accepts convictions with at most one decimal, negative, zero and whole', async () => {
    const { url, key, sandbox } = await setup();
    const values = [0.1, -0.3, 2, -12.5, 0, 7.7, 999.9];
    for (const [i, conviction] of values.entries()) {
      sandbox.addThread({ id: `v${i}` });
      const res = await predict(url, key, `v${i}`, conviction);
      expect(res.status, String(conviction)).toBe(201);
      expect(res.body.conviction).toBe(conviction);
    }
  });

  const invalid: [string, Record<string, unknown>][] = [
    ['two decimals', { conviction: 1.25 }],
    ['float noise', { conviction: 0.30000000000000004 }],
    ['a string conviction', { conviction: '1.5' }],
    ['no conviction', { conviction: undefined }],
    ['a null conviction', { conviction: null }],
    ['an out-of-range conviction', { conviction: 1e6 }],
    ['no text', { text: undefined }],
    ['a numeric text', { text: 1234567890123456 }],
    ['no thread_id', { thread_id: undefined }],
    ['another thread_id', { thread_id: 'th-2' }],
    ['a numeric thread_id', { thread_id: 1 }],
  ];
  it.each(invalid)('400 for %s', async (_, overrides) => {
    const { url, key, sandbox } = await setup();
    sandbox.addThread({ id: 'th-2' });
    const json = { text: TEXT, thread_id: 'th-1', conviction: 1.5, ...overrides };
    const res = await call(url, 'POST', '/comment/th-1', { key, json });
    expect(res.status).toBe(400);
    expect(typeof res.body.message).toBe('string');
    expect(sandbox.comments()).toHaveLength(0);
  });

  it('400 for a conviction written as 1e400 (Infinity once parsed)', async () => {
    const { url, key } = await setup();
    const raw = `{"text": "${TEXT}", "thread_id": "th-1", "conviction": 1e400}`;
    const res = await call(url, 'POST', '/comment/th-1', { key, raw, headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(400);
  });

  it('403 on a thread locked by time or by hand; nothing is recorded', async () => {
    const { url, key, sandbox, clock } = await setup();
    sandbox.addThread({ id: 'by-hand' });
    sandbox.lockThread('by-hand');
    const byHand = await predict(url, key, 'by-hand', 1);
    expect(byHand.status).toBe(403);
    expect(byHand.body.error).toBe('thread_locked');
    clock.advance(3 * HOUR);
    expect((await predict(url, key, 'th-1', 1)).status).toBe(403);
    expect(sandbox.comments()).toHaveLength(0);
    expect((await call(url, 'GET', '/agent/me', { key })).body.total_comments).toBe(0);
  });

  it('accepts a prediction one millisecond before the lock', async () => {
    const { url, key, clock } = await setup();
    clock.advance(3 * HOUR - 1);
    expect((await predict(url, key, 'th-1', 1)).status).toBe(201);
  });

  it('404 for an unknown thread', async () => {
    const { url, key } = await setup();
    const res = await predict(url, key, 'missing', 1);
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('not_found');
  });

  it('409 for a second prediction by the same agent; another agent may still post', async () => {
    const { url, key, sandbox } = await setup();
    expect((await predict(url, key, 'th-1', 1)).status).toBe(201);
    const again = await predict(url, key, 'th-1', -1);
    expect(again.status).toBe(409);
    expect(again.body.error).toBe('already_predicted');
    const other = await register(url, 'second-bee');
    expect((await predict(url, other.key, 'th-1', -1)).status).toBe(201);
    expect(sandbox.comments().map((c) => c.conviction)).toEqual([1, -1]);
    expect((await call(url, 'GET', '/agent/me', { key })).body.total_comments).toBe(1);
  });

  it('401 without a key, with a Bearer header, and with a wrong key', async () => {
    const { url, key } = await setup();
    const json = { text: TEXT, thread_id: 'th-1', conviction: 1 };
    expect((await call(url, 'POST', '/comment/th-1', { json })).status).toBe(401);
    expect(
      (await call(url, 'POST', '/comment/th-1', { json, headers: { authorization: `Bearer ${key}` } })).status,
    ).toBe(401);
    expect((await call(url, 'POST', '/comment/th-1', { json, key: `${key}x` })).status).toBe(401);
  });

  it('wraps the prediction as {comment} when asked', async () => {
    const { url, key } = await setup({ wrap: true });
    const res = await predict(url, key, 'th-1', 0.5);
    expect(res.status).toBe(201);
    expect(res.body.comment).toMatchObject({ thread_id: 'th-1', conviction: 0.5 });
  });
});
