import path from 'node:path';
import type { AgentRow, Schedule } from '../../agents/row.js';
import { describeAgo } from '../../domain/duration.js';
import { shownPath } from '../../output/sanitize.js';

// Honey and wax as the last hourly snapshot counted them, and how long ago: `agent me` has the present.
const HEADER = [
  'name',
  'config dir',
  'runs',
  'last poll',
  'posts 24h',
  'honey',
  'wax',
  'counted',
  'hit rate',
  'health',
];
/** Numbers line up on the right. */
const RIGHT = new Set(['posts 24h', 'honey', 'wax', 'hit rate']);

/**
 * The rows as an aligned table, a header first; the last column (health, with its reason) is not padded.
 * At a terminal (`width`) too narrow for the table's columns, one block per agent instead, its values
 * named, whose lines wrap at their spaces: a table row cut by the terminal's edge splits a number.
 */
export function agentsTable(
  rows: readonly AgentRow[],
  { now, home, width }: { now: number; home: string | undefined; width?: number },
): string[] {
  const cells = [HEADER, ...rows.map((row) => cellsOf(row, now, home))];
  const widths = HEADER.map((_, i) => Math.max(...cells.map((line) => (line[i] ?? '').length)));
  // The health column may wrap at its spaces; the columns before it must fit.
  const fixed = widths.slice(0, -1).reduce((sum, w) => sum + w + 2, 0);
  if (width !== undefined && fixed + 'FAILING'.length > width) return cells.slice(1).flatMap(block);
  return cells.map((line) =>
    line
      .map((cell, i) => {
        if (i === line.length - 1) return cell;
        const width = widths[i] ?? 0;
        return RIGHT.has(HEADER[i] ?? '') ? cell.padStart(width) : cell.padEnd(width);
      })
      .join('  ')
      .trimEnd(),
  );
}

function cellsOf(row: AgentRow, now: number, home: string | undefined): string[] {
  // No name: a state that cannot be read (failing, with no poll behind it), or none at all.
  const unreadable = row.health.state === 'failing' && row.health.runs === undefined;
  const name = row.name ?? (unreadable ? '?' : '(not registered)');
  const last = row.lastPoll
    ? `${describeAgo(now - Date.parse(row.lastPoll.at))} (${row.lastPoll.exitCode === 0 ? 'ok' : `exit ${row.lastPoll.exitCode}`})`
    : 'never';
  const health =
    row.health.state === 'failing'
      ? `FAILING${row.health.since ? ` since ${row.health.since.slice(0, 16).replace('T', ' ')}` : ''}: ${row.health.reason ?? ''}`
      : row.health.state === 'ok'
        ? 'ok'
        : '-';
  return [
    name,
    homePath(row.configDir, home),
    runsBy(row.schedule),
    last,
    String(row.posts24h),
    row.honey === null ? '-' : String(row.honey),
    row.wax === null ? '-' : String(row.wax),
    row.snapshotAt === null ? '-' : describeAgo(now - Date.parse(row.snapshotAt)),
    row.hitRate === null ? '-' : `${Math.round(row.hitRate * 100)}%`,
    health,
  ];
}

function block(cells: string[]): string[] {
  const [name, dir, runs, last, posts, honey, wax, counted, hitRate, health] = cells;
  return [
    `${name}  ${dir}`,
    `  runs ${runs}; last poll ${last}`,
    `  posts 24h ${posts}; hit rate ${hitRate}`,
    `  honey ${honey}; wax ${wax}${counted === '-' ? '' : ` (counted ${counted})`}`,
    `  health ${health}`,
  ];
}

function runsBy(schedule: Schedule): string {
  const every = schedule.interval === null ? '' : ` every ${schedule.interval} min`;
  switch (schedule.kind) {
    case 'watcher':
      return `watcher (pid ${schedule.pid}${schedule.overdue ? ', overdue' : ''})`;
    case 'cron':
    case 'systemd':
      return `${schedule.kind}${every}`;
    default:
      return 'not scheduled';
  }
}

/**
 * A dir under the home directory as `~/…`, which a shell expands where it is typed, for a table that
 * fits; a path that needs quoting is shown whole (absolute, quoted), since a quoted `~` means nothing.
 */
function homePath(dir: string, home: string | undefined): string {
  const shown = shownPath(dir);
  if (!home || shown !== dir) return shown;
  const inside = path.relative(home, dir);
  return inside && !inside.startsWith('..') && !path.isAbsolute(inside) ? `~/${inside}` : shown;
}
