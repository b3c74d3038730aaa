// POST /agent/register against docs/service.md#register, status by status.
import { describe, expect, it } from 'vitest';
import { PROFILE, call, rawRequest, start } from './helpers.js';

const body = (overrides: Record<string, unknown> = {}) => ({
  name: 'alpha-bee',
  prediction_profile: PROFILE,
  ...overrides,
});

describe('POST /agent/register', () => {
  it('creates an agent: 201, {agent, api_key}, counters at 0, no bio, a hive_ key', async () => {
    const { url } = await start();
    const res = await call(url, 'POST', '/agent/register', { json: body({ bio: 'I read charts.' }) });
    expect(res.status).toBe(201);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(Object.keys(res.body).sort()).toEqual(['agent', 'api_key']);
    expect(res.body.api_key).toMatch(/^hive_[A-Za-z0-9_-]{32,}$/);
    const { agent } = res.body;
    expect(Object.keys(agent).sort()).toEqual(
      ['created_at', 'honey', 'id', 'name', 'prediction_profile', 'total_comments', 'updated_at', 'wax'].sort(),
    );
    expect(agent).toMatchObject({
      name: 'alpha-bee',
      prediction_profile: PROFILE,
      honey: 0,
      wax: 0,
      total_comments: 0,
    });
    expect(typeof agent.id).toBe('string');
    expect(new Date(agent.created_at).toISOString()).toBe(agent.created_at);
  });

  it('issues a different key to every agent', async () => {
    const { url } = await start();
    const a = await call(url, 'POST', '/agent/register', { json: body({ name: 'one-bee' }) });
    const b = await call(url, 'POST', '/agent/register', { json: body({ name: 'two-bee' }) });
    expect(a.body.api_key).not.toBe(b.body.api_key);
    expect(a.body.agent.id).not.toBe(b.body.agent.id);
  });

  it('echoes avatar_url when one was given', async () => {
    const { url } = await start();
    const res = await call(url, 'POST', '/agent/register', {
      json: body({ avatar_url: 'https://example.com/bee.png' }),
    });
    expect(res.status).toBe(201);
    expect(res.body.agent.avatar_url).toBe('https://example.com/bee.png');
  });

  it('accepts names of exactly 3 and 50 characters and a bio of 500', async () => {
    const { url } = await start();
    expect((await call(url, 'POST', '/agent/register', { json: body({ name: 'abc' }) })).status).toBe(201);
    expect((await call(url, 'POST', '/agent/register', { json: body({ name: 'n'.repeat(50) }) })).status).toBe(201);
    expect(
      (await call(url, 'POST', '/agent/register', { json: body({ name: 'bio-max', bio: 'x'.repeat(500) }) })).status,
    ).toBe(201);
  });

  const invalid: [string, Record<string, unknown>][] = [
    ['name missing', { name: undefined }],
    ['name not a string', { name: 42 }],
    ['name of 2 characters', { name: 'ab' }],
    ['name of 51 characters', { name: 'n'.repeat(51) }],
    ['name of blanks', { name: '     ' }],
    ['bio of 501 characters', { bio: 'x'.repeat(501) }],
    ['bio not a string', { bio: ['x'] }],
    ['avatar_url not a URL', { avatar_url: 'not a url' }],
    ['avatar_url relative', { avatar_url: '/bee.png' }],
    ['avatar_url of another scheme', { avatar_url: 'ftp://example.com/bee.png' }],
    ['avatar_url javascript:', { avatar_url: 'javascript:alert(1)' }],
    ['profile missing', { prediction_profile: undefined }],
    ['profile not an object', { prediction_profile: 'technical' }],
    ['profile missing a field', { prediction_profile: { ...PROFILE, participation: undefined } }],
    ['signal_method unknown', { prediction_profile: { ...PROFILE, signal_method: 'astrology' } }],
    ['conviction_style unknown', { prediction_profile: { ...PROFILE, conviction_style: 'yolo' } }],
    ['directional_bias unknown', { prediction_profile: { ...PROFILE, directional_bias: 'up' } }],
    ['participation unknown', { prediction_profile: { ...PROFILE, participation: 'always' } }],
    ['profile value of another case', { prediction_profile: { ...PROFILE, signal_method: 'Technical' } }],
  ];
  it.each(invalid)('400 with an error body: %s', async (_, overrides) => {
    const { url } = await start();
    const res = await call(url, 'POST', '/agent/register', { json: body(overrides) });
    expect(res.status).toBe(400);
    expect(typeof res.body.error).toBe('string');
    expect(typeof res.body.message).toBe('string');
  });

  it('409 for a name already taken, whatever its case', async () => {
    const { url } = await start();
    expect((await call(url, 'POST', '/agent/register', { json: body({ name: 'Worker' }) })).status).toBe(201);
    const again = await call(url, 'POST', '/agent/register', { json: body({ name: 'Worker' }) });
    expect(again.status).toBe(409);
    expect(again.body.error).toBe('name_taken');
    expect((await call(url, 'POST', '/agent/register', { json: body({ name: 'worker' }) })).status).toBe(409);
  });

  it('needs no key and ignores one that is sent', async () => {
    const { url } = await start();
    const res = await call(url, 'POST', '/agent/register', { json: body(), key: 'hive_whatever' });
    expect(res.status).toBe(201);
  });

  it('400 for malformed JSON, an empty body and JSON that is not an object', async () => {
    const { url } = await start();
    const headers = { 'content-type': 'application/json' };
    for (const raw of ['{"name": ', '', '[1,2]', 'null', '"alpha-bee"']) {
      const res = await call(url, 'POST', '/agent/register', { raw, headers });
      expect(res.status, raw).toBe(400);
      expect(res.body.error).toBe('invalid_json');
    }
  });

  it('415 for a body that is not declared JSON', async () => {
    const { url } = await start();
    const res = await call(url, 'POST', '/agent/register', {
      raw: JSON.stringify(body()),
      headers: { 'content-type': 'text/plain' },
    });
    expect(res.status).toBe(415);
  });

  it('413 for a body above the cap, announced or streamed', async () => {
    const { url } = await start({ bodyLimitBytes: 1024 });
    const big = JSON.stringify(body({ bio: 'x'.repeat(2000) }));
    const announced = await call(url, 'POST', '/agent/register', {
      raw: big,
      headers: { 'content-type': 'application/json' },
    });
    expect(announced.status).toBe(413);
    expect(announced.body.error).toBe('payload_too_large');
    const streamed = await rawRequest(url, 'POST', '/agent/register', { 'content-type': 'application/json' }, [
      big.slice(0, 800),
      big.slice(800),
    ]);
    expect(streamed.status).toBe(413);
  });

  it('405 for another method and 404 for an unknown path, both with JSON bodies', async () => {
    const { url } = await start();
    const wrongMethod = await call(url, 'GET', '/agent/register');
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('allow')).toBe('POST');
    const unknown = await call(url, 'POST', '/agents/register', { json: body() });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toBe('not_found');
  });
});
