import { describe, expect, it } from 'vitest';
import type { AgentRow } from '../../../src/agents/row.js';
import { agentsTable } from '../../../src/commands/list/table.js';

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
});
