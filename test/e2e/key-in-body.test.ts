import { describe, expect, it } from 'vitest';
import { BULLISH, minutesAgo, registeredWorlds, type World } from './harness.js';

// key-never-shown, for what is sent: no request body carries the key in any case, and no post's text
// is written from a cell that holds it (a cell name is lower-cased, which hid it from the check).

const registered = registeredWorlds();

function expectNoKeySent(w: World, key: string): void {
  const sent = JSON.stringify(w.sandbox.comments()) + JSON.stringify(w.sandbox.requests.map((r) => r.body ?? ''));
  for (const form of [key, key.toLowerCase(), key.toUpperCase()]) expect(sent).not.toContain(form.slice(5, 20));
}

describe('the key in what is sent', () => {
  it('a thread in a cell named after the key is skipped with a reason, by poll and by predict', async () => {
    const w = await registered();
    const key = w.state().apiKey;
    w.sandbox.addThread({ id: 'k', text: BULLISH, project_id: `c/${key}`, timestamp: minutesAgo(3) });
    w.sandbox.addThread({ id: 'fine', text: BULLISH, project_id: 'c/bitcoin', timestamp: minutesAgo(2) });
    expect((await w.agent(['poll'])).code).toBe(0);
    expect(w.sandbox.comments().map((c) => c.thread_id)).toEqual(['fine']);
    const { entries } = JSON.parse((await w.agent(['history', '--json'])).stdout);
    expect(entries.find((e: { threadId: string }) => e.threadId === 'k')).toMatchObject({
      kind: 'skip',
      reason: expect.stringContaining('key'),
    });
    // By hand the same rule: a skip with its kind, own values or not (a poll's skip alone would not bar it).
    const own = await w.agent(['predict', 'k', '--conviction', '1.5', '--json']);
    expect(own.code).toBe(0);
    expect(JSON.parse(own.stdout)).toMatchObject({ action: 'skip', skipKind: 'keyed-thread' });
    expect(w.sandbox.comments()).toHaveLength(1);
    expectNoKeySent(w, key);
  });

  it.each([
    ['lower-cased', (key: string) => key.toLowerCase()],
    ['upper-cased', (key: string) => key.toUpperCase()],
  ])('a body that holds the key %s is never sent', async (_how, change) => {
    const w = await registered();
    const key = w.state().apiKey;
    w.sandbox.addThread({ id: 't', text: BULLISH, project_id: 'c/bitcoin', timestamp: minutesAgo(3) });
    const before = w.sandbox.requests.length;
    const bio = await w.agent(['update', '--bio', `my key is ${change(key)}`]);
    expect(bio.code).toBe(2);
    const post = await w.agent([
      'predict',
      't',
      '--conviction',
      '1',
      '--text',
      `a text that holds ${change(key)} here`,
    ]);
    expect(post.code).not.toBe(0);
    expect(w.sandbox.requests.slice(before).filter((r) => r.method !== 'GET')).toEqual([]);
    expectNoKeySent(w, key);
  });
});
