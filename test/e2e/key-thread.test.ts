import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { KeyForms } from '../../src/domain/key-forms.js';
import { BULLISH, countPosts, createWorld, minutesAgo, registeredWorlds } from './harness.js';

// A service that names a thread after the key (an id, a cell, a text or a citation holding it in any form a
// reader takes it in): that thread is refused, and said so without the key; the rest of the page is
// decided and posted as on any run, and nothing the run wrote or printed holds the key.

const registered = registeredWorlds();

const fullWidth = (text: string) =>
  Array.from(text, (c) => (c > ' ' && c <= '~' ? String.fromCharCode(c.charCodeAt(0) + 0xfee0) : c)).join('');
const zeroWidthSplit = (text: string) => Array.from(text).join('\u200b');

describe('a thread that holds the key', () => {
  it.each([
    ['id in full-width letters', (key: string) => ({ id: fullWidth(key) })],
    ['id split by U+200B', (key: string) => ({ id: zeroWidthSplit(key) })],
    ['id upper-cased', (key: string) => ({ id: key.toUpperCase() })],
    ['cell upper-cased', (key: string) => ({ id: 'keyed', project_id: `c/${key.toUpperCase()}` })],
    ['text in full-width letters', (key: string) => ({ id: 'keyed', text: `${BULLISH} ${fullWidth(key)}` })],
    [
      'citation split by U+200B',
      (key: string) => ({ id: 'keyed', citations: [{ url: 'https://x.test/a', title: zeroWidthSplit(key) }] }),
    ],
  ])('its %s: refused, the ordinary thread beside it posted, the run as usual', async (_how, keyed) => {
    const w = await registered();
    const key = w.state().apiKey;
    const forms = new KeyForms(key);
    const posts = countPosts(w);
    const thread = { text: BULLISH, project_id: 'c/bitcoin', timestamp: minutesAgo(3), ...keyed(key) };
    w.sandbox.addThread(thread);
    w.sandbox.addThread({ id: 'ordinary', text: BULLISH, project_id: 'c/bitcoin', timestamp: minutesAgo(2) });

    const poll = await w.agent(['poll', '--verbose']);
    expect(poll.code, poll.stderr).toBe(0);
    expect([...posts.entries()]).toEqual([['ordinary', 1]]);
    expect(poll.stderr).toMatch(/1 thread\(s\) refused: .*holds this agent's API key/);
    expect(forms.foundIn(poll.stdout + poll.stderr)).toBe(false);
    expect(w.state().cursor).toMatchObject({ id: 'ordinary' });

    // Decided for good: a second run neither posts on it nor says it again.
    const again = await w.agent(['poll', '--json']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).not.toContain('refused');
    expect([...posts.entries()]).toEqual([['ordinary', 1]]);
    for (const args of [['poll', '--json'], ['history', '--json'], ['stats', '--json'], ['history']]) {
      const shown = await w.agent(args);
      expect(forms.foundIn(shown.stdout + shown.stderr), args.join(' ')).toBe(false);
    }
    const { entries } = JSON.parse((await w.agent(['history', '--json'])).stdout);
    expect(entries.filter((e: { kind: string }) => e.kind === 'skip')).toEqual([
      expect.objectContaining({
        reason: expect.stringMatching(/^refused: the thread's \w+ holds a key of this agent/),
      }),
    ]);
    for (const name of fs.readdirSync(w.configDir)) {
      if (name === 'state.json') continue;
      const file = path.join(w.configDir, name);
      if (fs.statSync(file).isFile()) expect(forms.foundIn(fs.readFileSync(file, 'utf8')), name).toBe(false);
    }
  });
});

describe('the check after every e2e test', () => {
  it('finds the key in any form in a file, an output or a body, and says where without it', async () => {
    const w = await createWorld();
    expect((await w.register()).code).toBe(0);
    const key = w.state().apiKey;
    fs.writeFileSync(path.join(w.configDir, 'notes.txt'), `kept: ${fullWidth(key.toUpperCase())}`);
    // As if the program had sent it: it never does, so the request is put in the service's log by hand.
    w.sandbox.requests.push({ method: 'POST', path: '/x', headers: {}, body: `{"a":"${zeroWidthSplit(key)}"}` });
    const closed = w.close().then(
      () => '',
      (error: Error) => error.message,
    );
    const said = await closed;
    expect(said).toContain(`${path.join(w.configDir, 'notes.txt')}\n`);
    expect(said).toContain('the body of POST /x to the service');
    expect(new KeyForms(key).foundIn(said)).toBe(false);
    expect(fs.existsSync(w.home)).toBe(false);
  });
});
