import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type HistoryOptions, runHistory } from '../../../src/commands/history/run.js';
import { offlineContext } from '../../support/context.js';
import { registeredDir, shown } from '../../support/in-process.js';
import { T0 } from '../../support/timing.js';

// `agent history` in-process over a history.jsonl written here: what a poll and a predict leave is
// proved by spawning them (test/e2e/history.test.ts); how it is shown is proved here, at runHistory.

let root: string;
let dir: string;
let apiKey: string;
beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-history-'));
  ({ dir, apiKey } = registeredDir(path.join(root, 'config')));
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

const MINUTE = 60_000;
const at = (minutesAgo: number) => new Date(T0 - minutesAgo * MINUTE).toISOString();

function writeHistory(records: object[], extra = ''): void {
  const text = records.map((r) => JSON.stringify(r)).join('\n');
  fs.writeFileSync(path.join(dir, 'history.jsonl'), `${text}\n${extra}`, { mode: 0o600 });
}

/** Oldest first, as a poll appends them: two cycles, a post settled right, a skip, a failure. */
const RECORDS = [
  { ts: at(600), kind: 'post', threadId: 'old-up', cell: 'bitcoin', conviction: 1.2, text: 'up on volume' },
  { ts: at(600), kind: 'skip', threadId: 'calm', cell: 'ethereum', reason: 'no evidence' },
  {
    ts: at(600),
    kind: 'run',
    summary: { command: 'poll', posted: 1, skipped: 1, failed: 0, exitCode: 0, elapsedMs: 1234 },
  },
  { ts: at(10), kind: 'fail', threadId: 't9', cell: 'pepe', reason: 'the service failed (503)' },
  {
    ts: at(10),
    kind: 'run',
    summary: {
      command: 'poll',
      posted: 0,
      skipped: 0,
      failed: 1,
      locked: 2,
      exitCode: 5,
      elapsedMs: 400,
      error: 'the service failed (503)',
      counters: { honey: 10, wax: 2, predictions: 40 },
    },
  },
];

const OUTCOME = {
  resolvedAt: at(300),
  threadId: 'old-up',
  kind: 'post',
  cell: 'bitcoin',
  conviction: 1.2,
  decidedAt: at(600),
  move: 2.345,
  right: true,
};

function history(options: HistoryOptions = {}, { json = false } = {}) {
  const { ctx, stdout, stderr } = offlineContext(dir, { json });
  return shown(ctx, { stdout, stderr }, () => runHistory(ctx, options));
}

describe('agent history', () => {
  it('newest first, one line each: runs summed up, posts with their size and outcome, skips and failures with why', async () => {
    writeHistory(RECORDS);
    fs.writeFileSync(path.join(dir, 'outcomes.jsonl'), `${JSON.stringify(OUTCOME)}\n`, { mode: 0o600 });
    const result = await history();
    expect(result).toMatchObject({ code: 0, stderr: '' });
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(5);
    expect(lines[0]).toBe(
      `${at(10).slice(0, 16).replace('T', ' ')}  poll     0 posted, 0 skipped (2 locked), 1 failed, exit 5 in 0.4 s; honey 10, wax 2, 40 predictions: the service failed (503)`,
    );
    expect(lines[1]).toMatch(/ {2}failed {3}.* pepe {6}t9 {6}the service failed \(503\)$/);
    expect(lines[2]).toMatch(/ {2}poll {5}1 posted, 1 skipped, 0 failed, exit 0 in 1\.2 s$/);
    expect(lines[3]).toMatch(/ {2}skipped .* ethereum {2}calm {4}no evidence$/);
    // The realized move and a tick: the post was right.
    expect(lines[4]).toMatch(/ {2}posted {5}\+1\.2% {3}\+2\.35% \u2713 {2}bitcoin {3}old-up {2}up on volume$/);
  });

  it('--json: the entries newest first, each post with its outcome once there is one', async () => {
    writeHistory(RECORDS);
    fs.writeFileSync(path.join(dir, 'outcomes.jsonl'), `${JSON.stringify(OUTCOME)}\n`, { mode: 0o600 });
    const result = await history({}, { json: true });
    expect(result.code).toBe(0);
    const { entries } = JSON.parse(result.stdout);
    expect(entries.map((e: { kind: string }) => e.kind)).toEqual(['run', 'fail', 'run', 'skip', 'post']);
    expect(entries[4]).toEqual({
      ...RECORDS[0],
      outcome: { move: 2.345, right: true, resolvedAt: OUTCOME.resolvedAt },
    });
    // A line written before skips had kinds is given the kind its words map to (docs/record.md).
    expect(entries[3]).toEqual({ ...RECORDS[1], skipKind: 'no-evidence' });
  });

  it('--limit and --since keep the newest; nothing in that time is said as such', async () => {
    writeHistory(RECORDS);
    const limited = JSON.parse((await history({ limit: '2' }, { json: true })).stdout).entries;
    expect(limited.map((e: { kind: string }) => e.kind)).toEqual(['run', 'fail']);
    const recent = JSON.parse((await history({ since: '1h' }, { json: true })).stdout).entries;
    expect(recent.map((e: { ts: string }) => e.ts)).toEqual([at(10), at(10)]);
    expect((await history({ since: '5m' })).stdout).toBe('Nothing to show (nothing in that time).\n');
  });

  it('with no history yet, it says where it will be', async () => {
    expect(await history()).toEqual({
      code: 0,
      stdout: `Nothing to show (no history yet in ${dir}/history.jsonl: every poll and predict adds to it).\n`,
      stderr: '',
    });
    expect(JSON.parse((await history({}, { json: true })).stdout)).toEqual({ entries: [] });
  });

  it('lines that cannot be read are left out and counted on stderr, never fatal', async () => {
    writeHistory(RECORDS, '{"not": "a record"}\nnot json at all\n');
    const result = await history({}, { json: true });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).entries).toHaveLength(5);
    expect(result.stderr).toContain('2 line(s) of the history could not be read');
  });

  it('the key, and a key kept in a register --force backup, are masked in every field, text and --json', async () => {
    const before = `hive_${'Old0Key1'.repeat(5)}`;
    fs.writeFileSync(path.join(dir, 'state.20261101T000000000Z.bak.json'), JSON.stringify({ apiKey: before }), {
      mode: 0o600,
    });
    writeHistory([
      { ts: at(5), kind: 'skip', threadId: before, reason: 'from the agent before' },
      { ts: at(5), kind: 'post', threadId: apiKey, cell: apiKey.toLowerCase(), conviction: 1.2, text: `up ${apiKey}` },
      { ts: at(5), kind: 'fail', threadId: 't', cell: 'c', reason: `boom ${apiKey}` },
      {
        ts: at(5),
        kind: 'run',
        summary: { command: 'poll', posted: 1, skipped: 1, failed: 1, exitCode: 5, elapsedMs: 9, error: apiKey },
      },
    ]);
    const all = [await history(), await history({}, { json: true })].map((r) => r.stdout + r.stderr).join('');
    expect(all).toContain('\u2026');
    for (const key of [apiKey, before]) {
      for (const form of [key, key.toLowerCase()]) expect(all).not.toContain(form.slice(5, 20));
    }
  });

  it.each<[HistoryOptions, RegExp]>([
    [{ since: '5x' }, /--since/],
    [{ since: '0d' }, /--since/],
    [{ limit: '0' }, /--limit must be a whole number of entries, 1 or more \(got "0"\)/],
    [{ limit: 'all' }, /--limit must be a whole number/],
  ])('%j: a usage error, exit 2', async (options, message) => {
    const result = await history(options);
    expect(result).toMatchObject({ code: 2, stdout: '' });
    expect(result.stderr).toMatch(message);
  });
});
