import { describe, expect, it } from 'vitest';
import { unwrapList, unwrapObject } from '../../src/service/unwrap.js';

describe('unwrapList', () => {
  const list = [{ id: 'a' }];
  it.each([
    ['an array', list, list],
    ['{threads}', { threads: list, total: 1 }, list],
    ['{data}', { data: list }, list],
    ['{items}', { items: list }, list],
    ['{results}', { results: list }, list],
    ['{data: {threads}}', { data: { threads: list } }, list],
    ['an empty array', [], []],
    ['{threads: "x"}', { threads: 'x' }, undefined],
    ['an object without a list', { total: 0 }, undefined],
    ['a string', 'x', undefined],
    ['null', null, undefined],
    ['undefined', undefined, undefined],
  ])('%s', (_what, body, expected) => {
    expect(unwrapList(body, ['threads'])).toEqual(expected);
  });
});

describe('unwrapObject', () => {
  const thread = { id: 't', text: 'x' };
  it.each([
    ['bare', thread, ['thread'], 'id', thread],
    ['{thread, comment_count}', { thread, comment_count: 2 }, ['thread'], 'id', thread],
    ['{data: {thread}}', { data: { thread } }, ['thread'], 'id', thread],
    ['{result}', { result: thread }, ['thread'], 'id', thread],
    ['{comment}', { comment: { id: 'c' } }, ['comment', 'prediction'], 'id', { id: 'c' }],
    [
      'registration, bare',
      { agent: { id: 'a' }, api_key: 'k' },
      ['data'],
      'api_key',
      { agent: { id: 'a' }, api_key: 'k' },
    ],
    [
      'registration, in data',
      { data: { agent: { id: 'a' }, api_key: 'k' } },
      ['data'],
      'api_key',
      { agent: { id: 'a' }, api_key: 'k' },
    ],
    ['nothing recognisable: as it is', { ok: true }, ['thread'], 'id', { ok: true }],
    ['an array: as it is', [thread], ['thread'], 'id', [thread]],
    ['a string: as it is', 'x', ['thread'], 'id', 'x'],
  ])('%s', (_what, body, keys, mark, expected) => {
    expect(unwrapObject(body, keys as string[], mark as string)).toEqual(expected);
  });
});
