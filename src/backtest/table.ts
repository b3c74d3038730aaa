import type { Profile } from '../domain/profile.js';
import { oneLine } from '../output/sanitize.js';
import type { CellMetrics } from './metrics.js';
import type { BacktestReport } from './replay.js';

// The human form of a backtest: one line saying what was measured, a table, one line saying what the
// columns mean. The JSON form (commands/backtest/measure.ts) carries the same numbers unformatted.

const CELL_WIDTH_MAX = 24;
const PROFILE_FLAGS: Array<[keyof Profile, string]> = [
  ['signal_method', '--signal-method'],
  ['conviction_style', '--conviction-style'],
  ['directional_bias', '--directional-bias'],
  ['participation', '--participation'],
];

export interface Heading {
  file: string;
  analyzer: string;
  profile: Profile;
  /** The profile fields given as flags; the others come from `rest`. */
  given: ReadonlyArray<keyof Profile>;
  /** Where the fields not given come from (default: the defaults). */
  rest?: 'defaults' | "the registered agent's";
  invalid: number;
}

export function headingLine({ file, analyzer, profile, given, rest = 'defaults', invalid }: Heading): string {
  const flags = PROFILE_FLAGS.map(([field, flag]) => `${flag} ${profile[field]}`).join(' ');
  const source =
    given.length === 0
      ? rest === 'defaults'
        ? 'all defaults'
        : rest
      : given.length === PROFILE_FLAGS.length
        ? 'all given'
        : `${PROFILE_FLAGS.filter(([field]) => given.includes(field))
            .map(([, flag]) => flag)
            .join(', ')} given, the rest ${rest}`;
  const left = `${invalid} invalid thread${invalid === 1 ? '' : 's'} left out`;
  return `Backtest of ${oneLine(file, 120)}: analyzer ${oneLine(analyzer, 120)}, profile ${flags} (${source}); ${left}.`;
}

const COLUMNS: Array<[title: string, value: (m: CellMetrics) => string]> = [
  ['threads', (m) => String(m.threads)],
  ['posted', (m) => String(m.posted)],
  ['skipped', (m) => String(m.skipped)],
  ['failed', (m) => String(m.failed)],
  ['coverage', (m) => percent(m.coverage)],
  ['accuracy', (m) => percent(m.accuracy)],
  ['MAE', (m) => (m.mae === null ? '-' : m.mae.toFixed(2))],
  ['honey', (m) => String(m.honey)],
  ['wax', (m) => String(m.wax)],
];

/** The overall row first, then one row per cell in name order; numbers right-aligned. */
export function tableLines(report: BacktestReport): string[] {
  const rows: Array<[string, CellMetrics]> = [
    ['all', report.overall],
    ...Object.entries(report.cells).map(([cell, metrics]): [string, CellMetrics] => [
      oneLine(cell, CELL_WIDTH_MAX),
      metrics,
    ]),
  ];
  const cells = rows.map(([name, metrics]) => [name, ...COLUMNS.map(([, value]) => value(metrics))]);
  const header = ['cell', ...COLUMNS.map(([title]) => title)];
  const widths = header.map((title, i) =>
    Math.max(Array.from(title).length, ...cells.map((row) => Array.from(row[i] ?? '').length)),
  );
  const line = (row: string[]) =>
    row
      .map((text, i) => (i === 0 ? padEnd(text, widths[i] ?? 0) : padStart(text, widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  return [line(header), ...cells.map(line)];
}

export const LEGEND =
  'accuracy: posts in the direction of the 3-hour move; MAE: mean |conviction - move| in % points; ' +
  'honey/wax: the sandbox scoring rule, each post as if made when its thread appeared (best case).';

function percent(rate: number | null): string {
  return rate === null ? '-' : `${(rate * 100).toFixed(1)}%`;
}

function padEnd(text: string, width: number): string {
  return text + ' '.repeat(Math.max(0, width - Array.from(text).length));
}

function padStart(text: string, width: number): string {
  return ' '.repeat(Math.max(0, width - Array.from(text).length)) + text;
}
