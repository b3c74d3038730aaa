import { describe, expect, it } from 'vitest';
import { BULLISH, countPosts, minutesAgo, registeredWorlds } from './harness.js';

const registered = registeredWorlds();

// Texts that made the analyzer's patterns backtrack for minutes: long runs of words before a teaser or a
// frame cue, no final punctuation, runs of question marks, quotes, links and emoji, up to 100,000 characters.
const words = (n: number) => 'whales keep moving coins to exchanges as funding flips '.repeat(n).trim();
const HOSTILE: Record<string, string> = {
  headline:
    'Bitcoin miners are sending coins to exchanges at the fastest pace since the summer and here is what it means',
  'long-words': `${words(1800)} here's what it means`,
  'question-links': `${'why? '.repeat(300)}${'https://t.co/abc '.repeat(3000)}x`,
  quotes: `${'"so called '.repeat(2000)}${"'rally ".repeat(2000)}\u201Cpump `.repeat(10),
  emoji: `${'\u{1F680}\u{1F643} to the moon '.repeat(4000)}what this means for`,
  'no-end': `Bitcoin ${'a '.repeat(50_000)}`,
};

describe('a poll is never held by one thread', () => {
  it('decides and posts the ordinary thread of a page full of hostile ones, each at most once', async () => {
    const w = await registered();
    const posts = countPosts(w);
    for (const [i, [id, text]] of Object.entries(HOSTILE).entries())
      w.sandbox.addThread({ id, text, project_id: 'c/bitcoin', timestamp: minutesAgo(30 - i) });
    w.sandbox.addThread({ id: 'ordinary', text: BULLISH, project_id: 'c/bitcoin', timestamp: minutesAgo(1) });

    // The bound is the run's timeout: a thread that held the poll would have it killed, with no exit code.
    const result = await w.agent(['poll', '--json'], { timeoutMs: 60_000 });
    expect(result.code).toBe(0);
    expect(posts.get('ordinary')).toBe(1);
    for (const count of posts.values()) expect(count).toBe(1);
    expect(w.state().cursor).toMatchObject({ id: 'ordinary' });
  });
});
