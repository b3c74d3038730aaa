import { describe, expect, it } from 'vitest';
import { refusalOf } from '../../src/domain/keyed-thread.js';
import type { Thread } from '../../src/domain/thread.js';
import { DISGUISES } from '../support/key-disguises.js';

const KEY = 'hive_Q7xk2Lm9PzR4tVb8Nc3Wd6Yh1Js5Fg0aEr';
const plain: Thread = {
  id: 't1',
  cell: 'bitcoin',
  projectId: 'c/bitcoin',
  text: 'Spot ETF inflows at a record.',
  timestamp: '2026-11-01T00:00:00.000Z',
  locked: false,
  citations: [{ url: 'https://example.com/a', title: 'a title' }],
};

const fields: Record<string, (shown: string) => Partial<Thread>> = {
  id: (shown) => ({ id: shown }),
  cell: (shown) => ({ projectId: `c/${shown}` }),
  text: (shown) => ({ text: `${plain.text} ${shown}` }),
  citations: (shown) => ({ citations: [...plain.citations, { title: `see ${shown}` }] }),
};

describe('refusalOf: a thread that holds the key', () => {
  it.each(Object.entries(DISGUISES))('in any field, %s: refused, naming the field and not the key', (_name, dress) => {
    for (const [field, put] of Object.entries(fields)) {
      const reason = refusalOf({ ...plain, ...put(dress(KEY)) }, [KEY]);
      expect(reason, field).toBe(
        `refused: the thread's ${field} holds a key of this agent; nothing of it is read, written or sent`,
      );
    }
  });

  it('leaves an ordinary thread alone, and knows no key shorter than 8 characters', () => {
    expect(refusalOf(plain, [KEY])).toBeUndefined();
    expect(refusalOf({ ...plain, id: 'short' }, ['short'])).toBeUndefined();
    expect(refusalOf({ ...plain, citations: [{}] }, [KEY])).toBeUndefined();
  });
});
