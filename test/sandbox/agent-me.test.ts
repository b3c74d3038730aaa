// GET and PATCH /agent/me against docs/service.md#agent-me and docs/service.md#authentication (x-api-key only).
import { describe, expect, it } from 'vitest';
import { PROFILE, call, register, start } from './helpers.js';

describe('GET /agent/me', () => {
  it('returns the caller with bio (null when none was given)', async () => {
    const { url } = await start();
    const { key, agent } = await register(url, 'me-bee');
    const res = await call(url, 'GET', '/agent/me', { key });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...agent, bio: null });
    const other = await register(url, 'bio-bee', { bio: 'Reads the tape.' });
    expect((await call(url, 'GET', '/agent/me', { key: other.key })).body.bio).toBe('Reads the tape.');
  });

  const unauthorised: [string, Record<string, string>][] = [
    ['no key', {}],
    ['an unknown key', { 'x-api-key': 'hive_0000000000000000000000000000000000000000000' }],
    ['an empty key', { 'x-api-key': '' }],
  ];
  it.each(unauthorised)('401 with %s', async (_, headers) => {
    const { url } = await start();
    await register(url, 'some-bee');
    const res = await call(url, 'GET', '/agent/me', { headers });
    expect(res.status).toBe(401);
    expect(res.body.error).toBe('unauthorized');
  });

  it('401 for a valid key sent as Authorization: Bearer', async () => {
    const { url } = await start();
    const { key } = await register(url, 'bearer-bee');
    const res = await call(url, 'GET', '/agent/me', { headers: { authorization: `Bearer ${key}` } });
    expect(res.status).toBe(401);
    expect(res.body.message).toMatch(/x-api-key/);
  });

  it('401 for a key with a character changed', async () => {
    const { url } = await start();
    const { key } = await register(url, 'typo-bee');
    const altered = key.slice(0, -1) + (key.endsWith('A') ? 'B' : 'A');
    expect((await call(url, 'GET', '/agent/me', { key: altered })).status).toBe(401);
  });
});

describe('PATCH /agent/me', () => {
  it('updates bio and the whole profile and answers with the updated agent', async () => {
    const { url, clock } = await start();
    const { key, agent } = await register(url, 'patch-bee');
    clock.advance(60_000);
    const profile = { ...PROFILE, conviction_style: 'bold', directional_bias: 'bearish' };
    const res = await call(url, 'PATCH', '/agent/me', { key, json: { bio: 'New bio', prediction_profile: profile } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: agent.id, name: 'patch-bee', bio: 'New bio', prediction_profile: profile });
    expect(res.body.updated_at).not.toBe(agent.updated_at);
    expect(res.body.created_at).toBe(agent.created_at);
    expect((await call(url, 'GET', '/agent/me', { key })).body).toEqual(res.body);
  });

  it('changes nothing for an empty object, and clears bio with null', async () => {
    const { url } = await start();
    const { key } = await register(url, 'empty-bee', { bio: 'old' });
    expect((await call(url, 'PATCH', '/agent/me', { key, json: {} })).body.bio).toBe('old');
    expect((await call(url, 'PATCH', '/agent/me', { key, json: { bio: null } })).body.bio).toBeNull();
  });

  it('400 "name cannot be changed" when name is sent, even unchanged', async () => {
    const { url } = await start();
    const { key } = await register(url, 'fixed-bee');
    for (const name of ['other-bee', 'fixed-bee']) {
      const res = await call(url, 'PATCH', '/agent/me', { key, json: { name } });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('name cannot be changed');
    }
    expect((await call(url, 'GET', '/agent/me', { key })).body.name).toBe('fixed-bee');
  });

  const invalid: [string, Record<string, unknown>][] = [
    ['a partial profile', { prediction_profile: { conviction_style: 'bold' } }],
    ['an unknown profile value', { prediction_profile: { ...PROFILE, participation: 'sometimes' } }],
    ['a bio of 501 characters', { bio: 'x'.repeat(501) }],
    ['honey', { honey: 1000 }],
    ['id', { id: 'ag_x' }],
  ];
  it.each(invalid)('400 for %s, and nothing changes', async (_, json) => {
    const { url } = await start();
    const { key } = await register(url, 'strict-bee');
    const before = (await call(url, 'GET', '/agent/me', { key })).body;
    const res = await call(url, 'PATCH', '/agent/me', { key, json });
    expect(res.status).toBe(400);
    expect((await call(url, 'GET', '/agent/me', { key })).body).toEqual(before);
  });

  it('401 without a key, before looking at the body', async () => {
    const { url } = await start();
    const res = await call(url, 'PATCH', '/agent/me', {
      raw: '{broken',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(401);
  });

  it('400 for malformed JSON and 415 for a body not declared JSON', async () => {
    const { url } = await start();
    const { key } = await register(url, 'json-bee');
    const headers = { 'content-type': 'application/json' };
    expect((await call(url, 'PATCH', '/agent/me', { key, raw: '{"bio": ', headers })).status).toBe(400);
    expect((await call(url, 'PATCH', '/agent/me', { key, raw: '{"bio":"x"}' })).status).toBe(415);
  });
});
