import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { agentRow, type RowDeps } from '../../src/agents/row.js';
import type { HistoryEntry } from '../../src/history/entry.js';
import { createStateStore } from '../../src/state/state-store.js';

// One row of `agent list`, built from an agent's files as its polls leave them: the state, the history
// (newest line last) and the record's outcomes.

const NOW = Date.parse('2026-11-26T12:00:00Z');
const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) fs.rmSync(root, { recursive: true, force: true });
});

function agentDir(): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-row-'));
  roots.push(root);
  return path.join(root, 'agent');
}

function register(dir: string, agentName = 'lexicon-1'): void {
  createStateStore(dir).write({
    apiKey: 'hive_key_0123456789',
    agentName,
    agentId: 'ag_1',
    cursor: null,
    baseUrl: 'http://127.0.0.1:9',
  });
}

const at = (hoursAgo: number) => new Date(NOW - hoursAgo * 3_600_000).toISOString();

function poll(hoursAgo: number, exitCode: number, extra: Partial<HistoryEntry['summary']> = {}): HistoryEntry {
  return {
    ts: at(hoursAgo),
    kind: 'run',
    summary: { command: 'poll', posted: 0, skipped: 0, failed: 0, exitCode, elapsedMs: 5, ...extra },
  };
}

const post = (hoursAgo: number, threadId: string, conviction = 1): HistoryEntry => ({
  ts: at(hoursAgo),
  kind: 'post',
  threadId,
  cell: 'c/bitcoin',
  conviction,
});

function history(dir: string, records: HistoryEntry[]): void {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  fs.writeFileSync(path.join(dir, 'history.jsonl'), records.map((r) => `${JSON.stringify(r)}\n`).join(''), {
    mode: 0o600,
  });
}

function outcome(threadId: string, hoursAgo: number, move: number, right: boolean): string {
  return JSON.stringify({
    resolvedAt: at(hoursAgo - 3),
    threadId,
    kind: 'post',
    cell: 'c/bitcoin',
    conviction: 1,
    decidedAt: at(hoursAgo),
    move,
    right,
  });
}

const deps = (warnings: string[] = []): RowDeps => ({
  now: NOW,
  isAlive: () => false,
  self: 1234,
  warn: (message) => warnings.push(message),
});

describe('a row of agent list', () => {
  it('a registered agent that polls well: its name, last poll, posts of the last 24 h, newest counters, hit rate', () => {
    const dir = agentDir();
    register(dir);
    history(dir, [
      post(30, 'old'),
      poll(30, 0, { posted: 1, counters: { honey: 10, wax: 2, predictions: 1 } }),
      post(20, 'a', 1),
      post(10, 'b', -1),
      post(6, 'c', 1),
      poll(6, 0, { posted: 3, counters: { honey: 40, wax: 5, predictions: 4 } }),
      poll(1, 0, { skipped: 2 }),
    ]);
    fs.writeFileSync(
      path.join(dir, 'outcomes.jsonl'),
      [outcome('a', 20, 1.2, true), outcome('b', 10, 0.8, false), outcome('c', 6, 0.5, true)]
        .map((l) => `${l}\n`)
        .join(''),
      { mode: 0o600 },
    );
    const row = agentRow({ configDir: dir, cron: { every: 60 } }, deps());
    expect(row).toEqual({
      configDir: dir,
      name: 'lexicon-1',
      registered: true,
      schedule: { kind: 'cron', interval: 60 },
      lastPoll: { at: at(1), exitCode: 0, posted: 0, skipped: 2, failed: 0 },
      posts24h: 3,
      honey: 40,
      wax: 5,
      snapshotAt: at(6),
      hitRate: 0.667,
      health: { state: 'ok' },
      setAside: null,
    });
  });

  it('three temporary failures in a row: failing, since the first of them, with the newest reason', () => {
    const dir = agentDir();
    register(dir);
    history(dir, [
      poll(4, 0),
      poll(3, 5, { error: 'network down' }),
      poll(2, 5, { error: 'network down' }),
      poll(1, 5, { error: 'service answered 503' }),
    ]);
    const row = agentRow({ configDir: dir }, deps());
    expect(row.health).toEqual({ state: 'failing', since: at(3), runs: 3, reason: 'service answered 503' });
    expect(row.lastPoll).toMatchObject({ exitCode: 5, error: 'service answered 503' });
  });

  it('two temporary failures are not yet failing; a rejected key (exit 3) is at once', () => {
    const dir = agentDir();
    register(dir);
    history(dir, [poll(3, 0), poll(2, 5), poll(1, 5)]);
    expect(agentRow({ configDir: dir }, deps()).health.state).toBe('ok');
    history(dir, [poll(3, 0), poll(1, 3, { error: 'the service rejected the key (401)' })]);
    expect(agentRow({ configDir: dir }, deps()).health).toMatchObject({ state: 'failing', runs: 1 });
  });

  it('a schedule that stopped polling (a stopped cron daemon) is failing once two runs and 3 min are missed', () => {
    // (A watcher's lateness is its marker's overdue time: believed only for a real watcher process, so it
    // is tried end to end, not here.)
    const dir = agentDir();
    register(dir);
    const cron = { configDir: dir, cron: { every: 5 } };
    const polledAgo = (minutes: number) => [{ ...poll(0, 0), ts: new Date(NOW - minutes * 60_000).toISOString() }];
    history(dir, polledAgo(13));
    expect(agentRow(cron, deps()).health.state).toBe('ok');
    history(dir, polledAgo(14));
    expect(agentRow(cron, deps()).health).toEqual({
      state: 'failing',
      since: new Date(NOW - 14 * 60_000).toISOString(),
      reason: `the last poll was 14 min ago, yet its crontab entry is installed for every 5 min: is it running? (agent --config-dir ${dir} doctor)`,
    });
    // Nothing scheduled: a quiet history is the person's choice, not a failure.
    expect(agentRow({ configDir: dir }, deps()).health.state).toBe('ok');
  });

  it('a state that cannot be parsed: not registered, failing, its file named; the history still read', () => {
    const dir = agentDir();
    history(dir, [post(2, 'a'), poll(2, 0, { posted: 1 })]);
    fs.writeFileSync(path.join(dir, 'state.json'), '{"apiKey": ', { mode: 0o600 });
    const row = agentRow({ configDir: dir }, deps());
    expect(row).toMatchObject({ name: null, registered: false, posts24h: 1, lastPoll: { posted: 1 } });
    expect(row.health.state).toBe('failing');
    expect(row.health.reason).toContain(path.join(dir, 'state.json'));
  });

  it('a state open to other users is failing too (every run refuses it)', () => {
    const dir = agentDir();
    register(dir);
    fs.chmodSync(path.join(dir, 'state.json'), 0o644);
    expect(agentRow({ configDir: dir }, deps()).health.state).toBe('failing');
  });

  it('a dir with nothing in it yet: not registered, never polled, health unknown, not scheduled', () => {
    const dir = agentDir();
    fs.mkdirSync(dir, { mode: 0o700 });
    expect(agentRow({ configDir: dir }, deps())).toEqual({
      configDir: dir,
      name: null,
      registered: false,
      schedule: { kind: 'none', interval: null },
      lastPoll: null,
      posts24h: 0,
      honey: null,
      wax: null,
      snapshotAt: null,
      hitRate: null,
      health: { state: 'unknown' },
      setAside: null,
    });
  });

  it('counters older than the week are still the last snapshot', () => {
    const dir = agentDir();
    register(dir);
    history(dir, [poll(24 * 10, 0, { counters: { honey: 7, wax: 1, predictions: 2 } }), poll(1, 0)]);
    expect(agentRow({ configDir: dir }, deps())).toMatchObject({ honey: 7, wax: 1, snapshotAt: at(240) });
  });

  it('a history that is not a file is said, and the row stands', () => {
    const dir = agentDir();
    register(dir);
    fs.mkdirSync(path.join(dir, 'history.jsonl'));
    const warnings: string[] = [];
    const row = agentRow({ configDir: dir, systemd: { every: 10 } }, deps(warnings));
    expect(row).toMatchObject({ registered: true, schedule: { kind: 'systemd', interval: 10 }, lastPoll: null });
    expect(warnings.join('\n')).toContain('history.jsonl is not a regular file');
  });
});
