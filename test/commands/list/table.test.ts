import { describe, expect, it } from 'vitest';
import type { AgentRow } from '../../../src/agents/row.js';
import { agentsTable } from '../../../src/commands/list/table.js';
import { fitLines } from '../../../src/output/wrap.js';

const NOW = Date.parse('2026-11-26T12:00:00Z');

const row = (over: Partial<AgentRow>): AgentRow => ({
  configDir: '/home/me/.config/prediction-agent',
  name: 'main-agent',
  registered: true,
  schedule: { kind: 'none', interval: null },
  lastPoll: null,
  posts24h: 0,
  honey: null,
  wax: null,
  snapshotAt: null,
  hitRate: null,
  health: { state: 'unknown' },
  setAside: null,
  ...over,
});

describe("agent list's table", () => {
  it('one aligned row per agent: ~ for the home directory, numbers on the right, health last and whole', () => {
    const lines = agentsTable(
      [
        row({
          schedule: { kind: 'cron', interval: 5 },
          lastPoll: { at: '2026-11-26T11:57:00Z', exitCode: 0, posted: 1, skipped: 2, failed: 0 },
          posts24h: 12,
          honey: 1234,
          wax: 56,
          snapshotAt: '2026-11-26T11:05:00Z',
          hitRate: 0.5834,
          health: { state: 'ok' },
        }),
        row({
          configDir: '/srv/agents/b b',
          name: null,
          registered: false,
          schedule: { kind: 'watcher', interval: null, pid: 4321, overdue: true },
          health: { state: 'failing', reason: 'the state file is corrupt' },
        }),
        row({
          configDir: '/home/me/.config/prediction-agent/agents/x',
          name: null,
          registered: false,
          schedule: { kind: 'systemd', interval: null },
          lastPoll: { at: '2026-11-26T09:00:00Z', exitCode: 3, posted: 0, skipped: 0, failed: 0 },
          health: { state: 'failing', since: '2026-11-26T09:00:00Z', runs: 1, reason: 'key rejected' },
        }),
      ],
      { now: NOW, home: '/home/me' },
    );
    expect(lines).toEqual([
      'name              config dir                           runs                         last poll         posts 24h  honey  wax  counted     hit rate  health',
      'main-agent        ~/.config/prediction-agent           cron every 5 min             3 min ago (ok)           12   1234   56  55 min ago       58%  ok',
      "?                 '/srv/agents/b b'                    watcher (pid 4321, overdue)  never                     0      -    -  -                  -  FAILING: the state file is corrupt",
      '(not registered)  ~/.config/prediction-agent/agents/x  systemd                      3 h ago (exit 3)          0      -    -  -                  -  FAILING since 2026-11-26 09:00: key rejected',
    ]);
  });

  it('at a terminal narrower than the table: one block per agent, each line within the width, numbers whole', () => {
    const rows = [
      row({
        schedule: { kind: 'cron', interval: 5 },
        lastPoll: { at: '2026-11-26T11:57:00Z', exitCode: 0, posted: 1, skipped: 2, failed: 0 },
        posts24h: 12,
        honey: 1234567,
        wax: 56,
        snapshotAt: '2026-11-26T11:00:00Z',
        hitRate: 0.5834,
        health: { state: 'ok' },
      }),
      row({
        configDir: '/home/me/.config/prediction-agent/agents/x',
        name: 'second-agent',
        health: { state: 'failing', since: '2026-11-26T09:00:00Z', runs: 1, reason: 'the service rejected the key' },
      }),
    ];
    const lines = fitLines(agentsTable(rows, { now: NOW, home: '/home/me', width: 60 }), 60);
    for (const line of lines) expect(Array.from(String(line)).length, String(line)).toBeLessThanOrEqual(60);
    expect(lines).toEqual([
      'main-agent  ~/.config/prediction-agent',
      '  runs cron every 5 min; last poll 3 min ago (ok)',
      '  posts 24h 12; hit rate 58%',
      '  honey 1234567; wax 56 (counted 60 min ago)',
      '  health ok',
      'second-agent  ~/.config/prediction-agent/agents/x',
      '  runs not scheduled; last poll never',
      '  posts 24h 0; hit rate -',
      '  honey -; wax -',
      '  health FAILING since 2026-11-26 09:00: the service',
      '      rejected the key',
    ]);
    // Wide enough: the table as before.
    expect(agentsTable(rows, { now: NOW, home: '/home/me', width: 200 })[0]).toMatch(/^name +config dir/);
  });
});
