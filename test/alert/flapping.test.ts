import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decideAlerts } from '../../src/alert/decide.js';
import { type AlertMemory, readMemory } from '../../src/alert/memory.js';
import { healthOf, type PollRun } from '../../src/history/health.js';

const T0 = Date.parse('2026-11-01T12:00:00.000Z');
const MIN = 60_000;
const HOUR = 60 * MIN;
const iso = (ms: number) => new Date(ms).toISOString();

/** A poll: its time after T0 and its exit code (0 good, 3 a refused key, 5 a temporary failure). */
type Poll = [atMs: number, exitCode: number];

/** Polls every `everyMs` from T0 with these exit codes, in turn. */
function every(everyMs: number, ...exitCodes: number[]): Poll[] {
  return exitCodes.map((code, i) => [i * everyMs, code]);
}

/** Feeds the polls one at a time, as cron would, the memory carried between them; the events sent, with when. */
function replay(polls: Poll[], memory: AlertMemory = {}): Array<{ kind: string; at: number }> {
  const sent: Array<{ kind: string; at: number }> = [];
  const history: PollRun[] = [];
  let mem = memory;
  for (const [atMs, exitCode] of polls) {
    const now = T0 + atMs;
    history.unshift({
      ts: iso(now),
      summary: { command: 'poll', posted: 0, skipped: 0, failed: 0, exitCode, elapsedMs: 10 },
    });
    const decision = decideAlerts(mem, {
      now: now + 1000,
      agent: 'bee',
      configDir: '/c',
      health: healthOf(history.slice(0, 20)),
      posting: { state: 'unknown' },
      doctor: 'run agent doctor',
    });
    sent.push(...decision.events.map((event) => ({ kind: event.kind, at: now })));
    mem = decision.memory;
  }
  return sent;
}

const kinds = (sent: Array<{ kind: string }>) => sent.map((event) => event.kind);

/** No two `failing`, nor two `recovered`, within an hour of each other; they take turns, `failing` first. */
function atMostOnePairAnHour(sent: Array<{ kind: string; at: number }>): void {
  expect(kinds(sent)).toEqual(sent.map((_, i) => (i % 2 === 0 ? 'failing' : 'recovered')));
  for (let i = 2; i < sent.length; i += 1) {
    expect((sent[i]?.at ?? 0) - (sent[i - 2]?.at ?? 0)).toBeGreaterThanOrEqual(HOUR);
  }
}

/** `n` copies of the pattern, one after the other. */
const repeat = <T>(n: number, ...pattern: T[]) => Array.from({ length: n }, () => pattern).flat();

describe('a flapping agent costs one failing/recovered pair an hour at most', () => {
  it('a service that refuses every other poll (401): one failing in three hours, recovered an hour after it stops', () => {
    const flapping = every(5 * MIN, ...repeat(18, 0, 3));
    expect(kinds(replay(flapping))).toEqual(['failing']);
    // Then it stops: good polls only, for an hour.
    const then = every(5 * MIN, ...repeat(18, 0, 3), ...repeat(12, 0));
    const sent = replay(then);
    expect(kinds(sent)).toEqual(['failing', 'recovered']);
    const lastFailure = T0 + (18 * 2 - 1) * 5 * MIN;
    expect(sent[1]?.at).toBe(lastFailure + 30 * MIN);
  });

  it('a real outage, then a real recovery: one failing, then one recovered 30 minutes into the good polls', () => {
    const sent = replay(every(5 * MIN, 0, ...repeat(24, 5), ...repeat(12, 0)));
    expect(kinds(sent)).toEqual(['failing', 'recovered']);
    expect(sent[0]?.at).toBe(T0 + 3 * 5 * MIN);
    expect(sent[1]?.at).toBe(T0 + 24 * 5 * MIN + 30 * MIN);
  });

  it('a key refused once: failing, then recovered no sooner than an hour after it', () => {
    const sent = replay(every(5 * MIN, 0, 3, ...repeat(14, 0)));
    expect(kinds(sent)).toEqual(['failing', 'recovered']);
    expect((sent[1]?.at ?? 0) - (sent[0]?.at ?? 0)).toBe(HOUR);
  });

  it('hourly polls that alternate: a pair every two hours; every 15 minutes, failing 1 in 3: no faster than hourly', () => {
    const hourly = replay(every(HOUR, ...repeat(6, 3, 0)));
    expect(kinds(hourly)).toEqual(repeat(6, 'failing', 'recovered'));
    atMostOnePairAnHour(hourly);
    const third = replay(every(15 * MIN, ...repeat(16, 3, 0, 0)));
    expect(third.length).toBeGreaterThan(0);
    atMostOnePairAnHour(third);
  });

  it('any pattern of good and failed polls, at any interval: at most a pair an hour, and recovered after an hour well', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(MIN, 5 * MIN, 10 * MIN, 15 * MIN, 30 * MIN, HOUR),
        fc.array(fc.constantFrom(0, 0, 3, 5, 1), { maxLength: 80 }),
        (interval, codes) => {
          const polls = every(interval, ...codes, ...repeat(Math.ceil(HOUR / interval) + 1, 0));
          const sent = replay(polls);
          atMostOnePairAnHour(sent);
          expect(sent.length % 2).toBe(0);
        },
      ),
    );
  });

  it('an alerts.json written before the last failure was kept still reads, and its failing recovers', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'alert-flap-'));
    try {
      const sentAt = iso(T0 - 2 * HOUR);
      fs.writeFileSync(path.join(dir, 'alerts.json'), JSON.stringify({ failing: { since: sentAt, sentAt } }));
      const memory = readMemory(dir);
      expect(memory).toEqual({ failing: { since: sentAt, sentAt } });
      expect(kinds(replay(every(5 * MIN, 0), memory))).toEqual(['recovered']);
      fs.writeFileSync(
        path.join(dir, 'alerts.json'),
        JSON.stringify({ failing: { since: sentAt, sentAt, lastFailedAt: iso(T0 - 10 * MIN) } }),
      );
      expect(readMemory(dir).failing?.lastFailedAt).toBe(iso(T0 - 10 * MIN));
      expect(kinds(replay(every(5 * MIN, 0), readMemory(dir)))).toEqual([]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
