import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { healthOf, type PollRun, readHealth } from '../../src/history/health.js';
import { appendHistory } from '../../src/history/log.js';
import type { HistoryEntry } from '../../src/history/entry.js';

const T0 = Date.parse('2026-11-01T12:00:00.000Z');

/** Runs given oldest first (as they happened), returned newest first (as the history reads them). */
function runs(...exitCodes: number[]): PollRun[] {
  return exitCodes
    .map((exitCode, i) => ({
      ts: new Date(T0 + i * 300_000).toISOString(),
      summary: {
        command: 'poll' as const,
        posted: 0,
        skipped: 0,
        failed: 0,
        exitCode,
        elapsedMs: 10,
        ...(exitCode ? { error: `failure ${i}` } : {}),
      },
    }))
    .reverse();
}

describe('whether an agent is failing', () => {
  it('knows nothing without a poll run', () => {
    expect(healthOf([])).toEqual({ state: 'unknown' });
    expect(healthOf(runs(130))).toEqual({ state: 'unknown' });
  });

  it('is failing after three temporary failures in a row, since the first of them', () => {
    expect(healthOf(runs(0, 5, 5)).state).toBe('ok');
    const failing = healthOf(runs(0, 5, 5, 5));
    expect(failing).toMatchObject({ state: 'failing', runs: 3, reason: 'failure 3' });
    expect(failing.state === 'failing' && failing.since).toBe(new Date(T0 + 300_000).toISOString());
  });

  it('is failing at once on an error that will not pass by itself', () => {
    for (const exitCode of [1, 2, 3]) expect(healthOf(runs(0, exitCode)).state).toBe('failing');
  });

  it('is well again after one good run, and a signal-stopped run changes nothing', () => {
    expect(healthOf(runs(3, 3, 0)).state).toBe('ok');
    expect(healthOf(runs(5, 5, 130, 5)).state).toBe('failing');
    expect(healthOf(runs(3, 130)).state).toBe('failing');
  });
});

describe('the health read from a config dir', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-health-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('reads only poll runs, newest first', () => {
    const records: HistoryEntry[] = [
      ...runs(5, 5, 5)
        .reverse()
        .map((run) => ({ ts: run.ts, kind: 'run' as const, summary: run.summary })),
      { ts: new Date(T0 + 3_600_000).toISOString(), kind: 'skip', threadId: 't1', reason: 'quiet' },
      {
        ts: new Date(T0 + 3_600_000).toISOString(),
        kind: 'run',
        summary: { command: 'predict', posted: 1, skipped: 0, failed: 0, exitCode: 0, elapsedMs: 5 },
      },
    ];
    appendHistory(dir, records, () => undefined);
    expect(readHealth(dir)).toMatchObject({ state: 'failing', runs: 3 });
    expect(readHealth(path.join(dir, 'none'))).toEqual({ state: 'unknown' });
  });
});
