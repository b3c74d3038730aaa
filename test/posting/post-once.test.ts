import { describe, expect, it } from 'vitest';
import { EXIT, NetworkError, ServerError, TimeoutError } from '../../src/errors.js';
import type { Outcome, ToPost } from '../../src/posting/outcome.js';
import { guardAfter, postOnce } from '../../src/posting/post-once.js';
import { fakeApi } from '../support/fake-api.js';
import { thread } from '../support/threads.js';

// The rule poll and predict share: the "posting" marks are on disk before any POST leaves, and what the
// answers allow is what guards the thread afterwards.

const post: ToPost = { kind: 'post', conviction: 1.2, text: 'c/bitcoin: inflows and a breakout; up 1.2% over 3 h.' };
const batch = ['a', 'b', 'c'].map((id, i) => ({ thread: thread(id, `2025-06-01T12:0${i}:00.000Z`), post }));

describe('postOnce', () => {
  it('marks the whole batch in one write before the first POST leaves, then sends each once', async () => {
    const events: string[] = [];
    const api = fakeApi({
      predict: async (threadId) => {
        events.push(`POST ${threadId}`);
        return { status: 'posted', prediction: undefined };
      },
    });
    const sent = await postOnce(batch, {
      api,
      journal: { markPosting: (marked) => events.push(`mark ${marked.map((item) => item.thread.id).join(',')}`) },
      crashPoint: (point) => events.push(point),
    });
    expect(events).toEqual(['mark a,b,c', 'before-post', 'POST a', 'POST b', 'POST c', 'after-post']);
    expect(sent.map((item) => [item.thread.id, item.outcome.kind])).toEqual([
      ['a', 'posted'],
      ['b', 'posted'],
      ['c', 'posted'],
    ]);
  });

  it('sends nothing when the marks cannot be written', async () => {
    const api = fakeApi({});
    const full = new Error('ENOSPC: no space left on device');
    await expect(
      postOnce(batch, {
        api,
        journal: {
          markPosting: () => {
            throw full;
          },
        },
      }),
    ).rejects.toBe(full);
    expect(api.calls).toEqual([]);
  });

  it('an empty batch writes nothing and sends nothing', async () => {
    const api = fakeApi({});
    let marked = false;
    await expect(postOnce([], { api, journal: { markPosting: () => (marked = true) } })).resolves.toEqual([]);
    expect(marked).toBe(false);
    expect(api.calls).toEqual([]);
  });

  it('gives each thread its own outcome, in the order of the batch, whatever order the answers come in', async () => {
    const api = fakeApi({
      predict: async (threadId) => {
        if (threadId === 'a') await new Promise((resolve) => setTimeout(resolve, 20));
        if (threadId === 'b') throw new TimeoutError('no complete answer');
        if (threadId === 'c') throw new NetworkError('ECONNREFUSED', true);
        return { status: 'posted', prediction: undefined };
      },
    });
    const sent = await postOnce(batch, { api, journal: { markPosting: () => undefined } });
    expect(sent.map((item) => [item.thread.id, item.outcome.kind])).toEqual([
      ['a', 'posted'],
      ['b', 'unknown'],
      ['c', 'failed'],
    ]);
    expect(sent.map((item) => guardAfter(item.outcome))).toEqual(['posted', 'unknown', undefined]);
  });
});

describe('guardAfter: what the entry says once the POST has answered', () => {
  const cases: Array<[string, Outcome, 'posted' | 'unknown' | undefined]> = [
    ['posted', { kind: 'posted', conviction: 1, text: 't', predictionId: 'p' }, 'posted'],
    [
      'already predicted (409): a prediction exists',
      { kind: 'skipped', skipKind: 'already-predicted', reason: 'already predicted by this agent', predicted: true },
      'posted',
    ],
    ['may have landed', { kind: 'unknown', error: 'timeout' }, 'unknown'],
    ['locked: nothing stored', { kind: 'skipped', skipKind: 'locked', reason: 'locked' }, undefined],
    [
      'a 503: nothing stored',
      { kind: 'failed', error: '503', retry: true, exitCode: EXIT.temporary, cause: new ServerError('503', 503) },
      undefined,
    ],
    ['a 400: nothing stored', { kind: 'failed', error: '400', retry: false, exitCode: EXIT.unexpected }, undefined],
    ['a stop (401, 429): nothing stored', { kind: 'stop', error: new Error('401') }, undefined],
  ];
  it.each(cases)('%s', (_what, outcome, guard) => {
    expect(guardAfter(outcome)).toBe(guard);
  });
});
