import { describe, expect, it } from 'vitest';
import { decideAlerts, PAUSE_ALERT_MS, type Posting, type RunFacts } from '../../src/alert/decide.js';
import type { AlertMemory } from '../../src/alert/memory.js';
import { healthOf, type PollRun } from '../../src/history/health.js';

const T0 = Date.parse('2026-11-01T12:00:00.000Z');
const FIVE_MIN = 300_000;
const iso = (ms: number) => new Date(ms).toISOString();

/** Poll runs given oldest first, five minutes apart; the history's order (newest first) is made here. */
function runs(...exitCodes: number[]): PollRun[] {
  return exitCodes
    .map((exitCode, i) => ({
      ts: iso(T0 + i * FIVE_MIN),
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

const unknown: Posting = { state: 'unknown' };

function facts(history: PollRun[], more: Partial<RunFacts> = {}): RunFacts {
  return {
    now: Date.parse(history[0]?.ts ?? iso(T0)) + 1000,
    agent: 'bee',
    configDir: '/home/me/.config/prediction-agent',
    health: healthOf(history),
    posting: unknown,
    doctor: 'run agent doctor',
    ...more,
  };
}

/** Feeds the runs one at a time, oldest first, as cron would; gives every event sent and the last memory. */
function replay(exitCodes: number[], memory: AlertMemory = {}) {
  const kinds: string[] = [];
  let mem = memory;
  for (let n = 1; n <= exitCodes.length; n += 1) {
    const decision = decideAlerts(mem, facts(runs(...exitCodes.slice(0, n))));
    kinds.push(...decision.events.map((event) => event.kind));
    mem = decision.memory;
  }
  return { kinds, memory: mem };
}

describe('which alerts a poll run calls for', () => {
  it('failing once over five temporary failures, then recovered once an hour after it, then nothing', () => {
    expect(replay([0, 5, 5, 5, 5, 5, 0, 0]).kinds).toEqual(['failing']);
    const { kinds, memory } = replay([0, 5, 5, 5, 5, 5, ...Array<number>(10).fill(0)]);
    expect(kinds).toEqual(['failing', 'recovered']);
    expect(memory).toEqual({});
  });

  it('failing at once for a rejected key or a broken state (exit 3, exit 1), since that run', () => {
    const decision = decideAlerts({}, facts(runs(0, 3)));
    expect(decision.events.map((e) => e.kind)).toEqual(['failing']);
    expect(decision.events[0]).toMatchObject({ since: iso(T0 + FIVE_MIN), agent: 'bee', hint: 'run agent doctor' });
    expect(decision.events[0]?.detail).toContain('failure 1');
    expect(replay([0, 1, 1, 1]).kinds).toEqual(['failing']);
  });

  it('failing at once for a state problem the history never saw, with its hint; once', () => {
    const problem = { message: 'no agent is registered in /x', hint: 'run "agent register" first' };
    const first = decideAlerts({}, facts(runs(0, 0), { stateProblem: problem, agent: null }));
    expect(first.events).toHaveLength(1);
    expect(first.events[0]).toMatchObject({ kind: 'failing', agent: null, hint: 'run "agent register" first' });
    expect(first.events[0]?.text).toContain('the agent in /home/me/.config/prediction-agent');
    expect(first.changed).toBe(true);
    const again = decideAlerts(first.memory, facts(runs(0, 0), { stateProblem: problem }));
    expect(again.events).toEqual([]);
    expect(again.changed).toBe(false);
    // A good run (the history's newest is exit 0 again) an hour later recovers; one sooner does not.
    const soon = decideAlerts(again.memory, facts(runs(0, 0, 0)));
    expect(soon.events).toEqual([]);
    const later = decideAlerts(again.memory, facts(runs(0, 0, 0), { now: T0 + 75 * 60_000 }));
    expect(later.events.map((e) => e.kind)).toEqual(['recovered']);
  });

  it('no recovered for a run that failed, though too few failures make it "ok"', () => {
    const sent: AlertMemory = { failing: { since: iso(T0), sentAt: iso(T0) } };
    const decision = decideAlerts(sent, facts(runs(0, 5)));
    expect(decision.events).toEqual([]);
    expect(decision.memory).toEqual({ failing: { ...sent.failing, lastFailedAt: iso(T0 + FIVE_MIN + 1000) } });
  });

  it('a good run with nothing to send changes nothing (the caller writes nothing)', () => {
    const decision = decideAlerts({}, facts(runs(0, 0, 0), { posting: { state: 'posting' } }));
    expect(decision).toEqual({ events: [], memory: {}, changed: false });
  });

  it('paused once per pause, only beyond 10 minutes', () => {
    const now = T0 + FIVE_MIN;
    const short = decideAlerts({}, facts(runs(0, 5), { now, pausedUntil: now + PAUSE_ALERT_MS }));
    expect(short.events).toEqual([]);
    const long = decideAlerts({}, facts(runs(0, 5), { now, pausedUntil: now + 30 * 60_000 }));
    expect(long.events.map((e) => e.kind)).toEqual(['paused']);
    expect(long.events[0]?.detail).toContain('30 min');
    const inside = decideAlerts(
      long.memory,
      facts(runs(0, 5, 0), { now: now + FIVE_MIN, pausedUntil: now + 30 * 60_000 }),
    );
    expect(inside.events).toEqual([]);
    const another = decideAlerts(
      long.memory,
      facts(runs(0, 5, 0, 5), { now: now + 40 * 60_000, pausedUntil: now + 90 * 60_000 }),
    );
    expect(another.events.map((e) => e.kind)).toEqual(['paused']);
  });

  it('quiet once with the top reasons, re-armed by the next post', () => {
    const quiet: Posting = {
      state: 'quiet',
      since: iso(T0 - 86_400_000),
      skipped: 12,
      reasons: [
        { reason: 'the evidence is too weak', count: 9 },
        { reason: 'no evidence: nothing in the thread reads bullish or bearish', count: 3 },
      ],
    };
    const first = decideAlerts({}, facts(runs(0), { posting: quiet }));
    expect(first.events).toHaveLength(1);
    expect(first.events[0]).toMatchObject({ kind: 'quiet', since: quiet.since });
    expect(first.events[0]?.detail).toBe(
      '12 new thread(s) in the last 24 h, every one skipped: the evidence is too weak (9); no evidence: nothing in the thread reads bullish or bearish (3)',
    );
    expect(decideAlerts(first.memory, facts(runs(0, 0), { posting: quiet })).events).toEqual([]);
    // Too little known (no thread came since) keeps the alert sent: no second one.
    expect(decideAlerts(first.memory, facts(runs(0, 0), { posting: unknown })).changed).toBe(false);
    const posted = decideAlerts(first.memory, facts(runs(0, 0, 0), { posting: { state: 'posting' } }));
    expect(posted.events).toEqual([]);
    expect(posted.memory).toEqual({});
    expect(decideAlerts(posted.memory, facts(runs(0, 0, 0, 0), { posting: quiet })).events).toHaveLength(1);
  });

  it('every event has the one shape, with a one-line text a chat shows as it is', () => {
    const decision = decideAlerts({}, facts(runs(0, 2)));
    const [event] = decision.events;
    expect(Object.keys(event ?? {}).sort()).toEqual(['agent', 'configDir', 'detail', 'hint', 'kind', 'since', 'text']);
    expect(event?.text).toMatch(
      /^agent bee: polls failing since 2026-11-01T12:05:00.000Z: the last poll failed with exit 2: failure 1 \(run agent doctor\)$/,
    );
  });
});
