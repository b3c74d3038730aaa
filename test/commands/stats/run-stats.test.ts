import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runStats, type StatsOptions } from '../../../src/commands/stats/run.js';
import { offlineContext } from '../../support/context.js';
import { registeredDir, shown } from '../../support/in-process.js';
import { T0 } from '../../support/timing.js';

// runStats over a history written here (stats.test.ts proves aggregate and the rendering alone;
// test/e2e/stats.test.ts the same over a real poll's history, by spawning).

let root: string;
let dir: string;
let apiKey: string;
beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-stats-'));
  ({ dir, apiKey } = registeredDir(path.join(root, 'config')));
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

const DAY = 86_400_000;

/** Two polls, three and two days back, a post each; the second on a cell that is the key echoed. */
function writeWeek(): void {
  const records = [3, 2].flatMap((days) => {
    const ts = new Date(T0 - days * DAY).toISOString();
    return [
      { ts, kind: 'post', threadId: `p${days}`, cell: days === 3 ? 'solana' : apiKey, conviction: 2, text: 'x' },
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
  fs.writeFileSync(path.join(dir, 'history.jsonl'), `${records.map((r) => JSON.stringify(r)).join('\n')}\n`, {
    mode: 0o600,
  });
}

function stats(options: StatsOptions = {}, { json = false } = {}) {
  const { ctx, stdout, stderr } = offlineContext(dir, { json });
  return shown(ctx, { stdout, stderr }, () => runStats(ctx, options));
}

describe('agent stats', () => {
  it('sums up the period: --json numbers, plain rows, a shorter --since leaving earlier days out, the key masked', async () => {
    writeWeek();
    const json = await stats({}, { json: true });
    expect(json.code).toBe(0);
    const doc = JSON.parse(json.stdout);
    expect(doc.runs).toEqual({ poll: 2, predict: 0, failed: 0, failedPolls: 0, failedPredicts: 0 });
    expect(doc.posts).toBe(2);
    expect(doc.counters.map((c: { honey: number }) => c.honey)).toEqual([3, 2]);

    const text = await stats();
    expect(text.stdout).toContain('2 polls (0 ended with an error)');
    expect(text.stdout).toMatch(/^solana +1 +0 +2\.00%$/m);
    expect(text.stdout).not.toMatch(/\u001b/);
    for (const out of [json.stdout, text.stdout]) {
      expect(out).toContain('\u2026');
      for (const form of [apiKey, apiKey.toLowerCase()]) expect(out).not.toContain(form.slice(5, 20));
    }

    expect(JSON.parse((await stats({ since: '2d' }, { json: true })).stdout).posts).toBe(1);
  });

  it('nothing in the period: says when the latest entry is from; no history: says where it will be', async () => {
    writeWeek();
    expect((await stats({ since: '1d' })).stdout).toBe(
      `No stats yet: nothing was recorded in that time; the latest entry is from ${new Date(T0 - 2 * DAY).toISOString().slice(0, 16).replace('T', ' ')} UTC (try a longer --since).\n`,
    );
    fs.rmSync(path.join(dir, 'history.jsonl'));
    expect((await stats()).stdout).toBe(
      `No stats yet: there is no history yet in ${dir}/history.jsonl: every poll adds to it, so a day of polls from cron gives a first picture.\n`,
    );
  });

  it('--since that is not a duration: a usage error (exit 2)', async () => {
    const result = await stats({ since: 'week' });
    expect(result).toMatchObject({ code: 2, stdout: '' });
    expect(result.stderr).toMatch(/^agent: .*--since/);
  });
});
