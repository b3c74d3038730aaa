import { describe, expect, it } from 'vitest';
import {
  agentSchema,
  predictionSchema,
  registrationSchema,
  threadIdentitySchema,
  threadSchema,
} from '../../src/service/schemas.js';
import { wireThread } from '../support/threads.js';

describe('threadSchema', () => {
  it('keeps fields it does not know (loose)', () => {
    const parsed = threadSchema().parse({
      ...wireThread('a', '2025-06-01T12:00:00Z'),
      pollen_id: 'p',
      comment_count: 3,
    });
    expect(parsed).toMatchObject({ pollen_id: 'p', comment_count: 3 });
  });

  const accepted: Array<[string, Record<string, unknown>, Record<string, unknown>]> = [
    ['a numeric id', { id: 12 }, { id: '12' }],
    ['locked missing', { locked: undefined }, { locked: false }],
    ['price as text', { price_on_fetch: '1.25' }, { price_on_fetch: 1.25 }],
    ['price null', { price_on_fetch: null }, { price_on_fetch: null }],
    ['price garbage', { price_on_fetch: 'abc' }, { price_on_fetch: undefined }],
    ['price in hex', { price_on_fetch: '0x10' }, { price_on_fetch: undefined }],
    ['price blank', { price_on_fetch: ' ' }, { price_on_fetch: undefined }],
    ['price in binary', { price_on_fetch: '0b11' }, { price_on_fetch: undefined }],
    ['price an object', { price_on_fetch: {} }, { price_on_fetch: undefined }],
    ['citations missing', { citations: undefined }, { citations: [] }],
    ['citations not an array', { citations: { url: 'x' } }, { citations: [] }],
    ['citation without url', { citations: [{ title: 't' }] }, { citations: [{ title: 't' }] }],
    [
      'citation with a numeric url',
      { citations: [{ url: 1, title: 't' }] },
      { citations: [{ url: undefined, title: 't' }] },
    ],
    ['a citation that is no object', { citations: ['x', null] }, { citations: [{}, {}] }],
    ['an offset timestamp', { timestamp: '2025-06-01T14:00:00+02:00' }, { timestamp: '2025-06-01T14:00:00+02:00' }],
  ];
  it.each(accepted)('accepts %s', (_what, change, expected) => {
    const result = threadSchema().safeParse({ ...wireThread('a', '2025-06-01T12:00:00Z'), ...change });
    expect(result.success).toBe(true);
    expect(result.data).toMatchObject(expected);
  });

  const refused: Array<[string, Record<string, unknown>, string]> = [
    ['no id', { id: undefined }, 'id'],
    ['an empty id', { id: '' }, 'id'],
    ['an id that is an object', { id: { a: 1 } }, 'id'],
    ['no text', { text: undefined }, 'text'],
    ['text a number', { text: 5 }, 'text'],
    ['no project', { project_id: undefined }, 'project_id'],
    ['a timestamp that is no instant', { timestamp: 'last tuesday-ish' }, 'timestamp'],
    ['locked as text', { locked: 'false' }, 'locked'],
  ];
  it.each(refused)('refuses %s', (_what, change, path) => {
    const result = threadSchema().safeParse({ ...wireThread('a', '2025-06-01T12:00:00Z'), ...change });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual([path]);
  });
});

describe('threadIdentitySchema', () => {
  it.each([
    [{ id: 'a', timestamp: '2025-06-01T12:00:00Z' }, true],
    [{ id: 3, timestamp: '2025-06-01T12:00:00Z' }, true],
    [{ id: 'a' }, false],
    [{ timestamp: '2025-06-01T12:00:00Z' }, false],
    [{ id: 'a', timestamp: 'nope' }, false],
  ])('%j → %s', (value, ok) => {
    expect(threadIdentitySchema().safeParse(value).success).toBe(ok);
  });
});

describe('agentSchema', () => {
  it.each([
    [{ id: 'a', name: 'n' }, true],
    [{ id: 1, name: 'n', honey: '3', wax: null, total_comments: 2 }, true],
    [{ id: 'a', name: 'n', honey: 'lots' }, false],
    [
      {
        id: 'a',
        name: 'n',
        prediction_profile: {
          signal_method: 'astrology',
          conviction_style: 'bold',
          directional_bias: 'neutral',
          participation: 'active',
        },
      },
      false,
    ],
    [{ name: 'n' }, false],
  ])('%j → %s', (value, ok) => {
    expect(agentSchema().safeParse(value).success).toBe(ok);
  });
});

describe('registrationSchema', () => {
  it.each([
    ['hive_abcdefgh1234', true],
    ['short', false],
    ['hive_abc defgh', false],
    ['hive_abc\u001b[0m123', false],
    [12345678, false],
  ])('api_key %j → %s', (key, ok) => {
    expect(registrationSchema().safeParse({ agent: { id: 'a', name: 'n' }, api_key: key }).success).toBe(ok);
  });
});

describe('predictionSchema', () => {
  it.each([
    [{ id: 'c' }, true],
    [{ id: 5, thread_id: 7, conviction: '-1.5' }, true],
    [{ thread_id: 't' }, false],
    [{ id: 'c', conviction: 'big' }, false],
  ])('%j → %s', (value, ok) => {
    expect(predictionSchema().safeParse(value).success).toBe(ok);
  });
});
