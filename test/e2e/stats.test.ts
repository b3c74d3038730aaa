import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BEARISH, BULLISH, minutesAgo, registeredWorlds } from './harness.js';

// `agent stats` over the history: what a real poll recorded, plus a week written as cron would have.

const registered = registeredWorlds();
const DAY = 86_400_000;

describe('agent stats', () => {
  it('sums up a week: real polls and earlier days alike; plain rows off a terminal, numbers with --json', async () => {
    const w = await registered();
    w.sandbox.addThread({ id: 'up', text: BULLISH, project_id: 'c/bitcoin', timestamp: minutesAgo(3) });
    w.sandbox.addThread({ id: 'down', text: BEARISH, project_id: 'c/ethereum', timestamp: minutesAgo(2) });
    expect((await w.agent(['poll'])).code).toBe(0);
    const earlier = [3, 2].flatMap((days) => {
      const ts = new Date(Date.now() - days * DAY).toISOString();
      return [
        { ts, kind: 'post', threadId: `p${days}`, cell: 'solana', conviction: 2, text: 'earlier' },
        {
          ts,
          kind: 'run',
          summary: {
            command: 'poll',
            posted: 1,
            skipped: 0,
            failed: 0,
            exitCode: 0,
            elapsedMs: 40,
            counters: { honey: days, wax: 1, predictions: 10 - days },
          },
        },
      ];
    });
    const file = path.join(w.configDir, 'history.jsonl');
    fs.writeFileSync(file, `${earlier.map((r) => JSON.stringify(r)).join('\n')}\n${fs.readFileSync(file, 'utf8')}`);

    const json = await w.agent(['stats', '--json']);
    expect(json.code).toBe(0);
    const stats = JSON.parse(json.stdout);
    expect(stats.runs).toEqual({ poll: 3, predict: 0, failed: 0, failedPolls: 0, failedPredicts: 0 });
    expect(stats.posts).toBe(4);
    expect(stats.cells.map((c: { cell: string }) => c.cell).sort()).toEqual(['bitcoin', 'ethereum', 'solana']);
    expect(stats.postsPerDay).toHaveLength(8);
    expect(stats.counters.length).toBe(3);

    const text = await w.agent(['stats']);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('3 polls (0 ended with an error)');
    expect(text.stdout).toMatch(/^solana +2 +0 +2\.00%$/m);
    expect(text.stdout).toMatch(/^day \(UTC\) +honey +wax +predictions$/m);
    expect(text.stdout).not.toMatch(/\u001b/);
    // A shorter period leaves the earlier days out.
    expect(JSON.parse((await w.agent(['stats', '--since', '1d', '--json'])).stdout).posts).toBe(2);
  });

  it('with no history yet it says when there will be something to see', async () => {
    const w = await registered();
    const result = await w.agent(['stats']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/No stats yet: there is no history yet in .*history\.jsonl: every poll adds to it/);
  });

  it('--since that is not a duration is a usage error (exit 2)', async () => {
    const w = await registered();
    expect((await w.agent(['stats', '--since', 'week'])).code).toBe(2);
  });
});
