// The hidden outcome (and scores) never reach a response: every body is scanned for the names and the
// values of the hidden fields, across plain and wrapped variants.
import { describe, expect, it } from 'vitest';
import { HOUR, call, predict, register, start } from './helpers.js';

const HIDDEN_NAMES = [
  'outcome',
  'movePct',
  'priceOnEval',
  'price_on_eval',
  'path',
  'direction',
  'strength',
  'scored',
  'forcedLock',
  'timestampMs',
  'createdMs',
  'stance',
];

describe('the outcome never leaks', () => {
  it.each([false, true])('in any response (wrap %s)', async (wrap) => {
    const { url, sandbox, clock } = await start({ seed: 99, ratePerMinute: 2, backlog: 10, wrap });
    clock.advance(10 * 60_000);
    const { key } = await register(url, 'leak-bee');
    const threads = sandbox.store.threads();
    const bodies: string[] = [];
    const list = await call(url, 'GET', '/thread?limit=100', { key });
    bodies.push(list.text);
    for (const thread of threads) bodies.push((await call(url, 'GET', `/thread/${thread.id}`, { key })).text);
    const open = threads.find((t) => !t.forcedLock && t.timestampMs > clock.now() - 3 * HOUR)!;
    bodies.push((await predict(url, key, open.id, 1.2)).text);
    const before = bodies.join('\n');
    const then = clock.now();
    clock.advance(4 * HOUR);
    bodies.push((await call(url, 'GET', '/thread?limit=100', { key })).text);
    bodies.push((await call(url, 'GET', '/agent/me', { key })).text);

    const all = bodies.join('\n');
    for (const name of HIDDEN_NAMES) expect(all, name).not.toContain(`"${name}"`);
    // A price 3 hours later with its full precision would give the game away before its time. Once that
    // time has come, later threads of the cell are priced on the same path (price-path.ts): that is the feed.
    let checked = 0;
    for (const thread of threads.filter((t) => t.timestampMs + 3 * HOUR > then)) {
      const later = String(thread.outcome.priceOnEval);
      if (later.replace(/\D/g, '').length < 6) continue;
      checked += 1;
      expect(before).not.toMatch(new RegExp(`:${later.replace('.', '\\.')}[,}]`));
    }
    expect(checked).toBeGreaterThan(5);
    expect(threads.length).toBeGreaterThan(20);
  });

  it('is in the state file, which is why that file is private', async () => {
    const { sandbox } = await start({ seed: 1, backlog: 2 });
    expect(JSON.stringify(sandbox.store.toJSON())).toContain('"outcome"');
  });
});
