import { oneLine } from '../output/sanitize.js';
import { type Line, type Painted, widthOf } from '../output/wrap.js';
import type { CalibrationRow, Call, RecordMetrics, RecordStats } from './record-stats.js';

// `agent stats`' record as lines: plain aligned rows off a terminal (a mail, a script), and at one (`width`
// given) the hit rates as gauges with their intervals and the calibration as a chart, painted where the
// output allows colour. Drawn lines are at most ~80 columns, drawn only where they fit (else the plain
// rows); the rest are plain and wrap like any other.

type Piece = string | Painted;

const pct = (fraction: number) => `${(fraction * 100).toFixed(1)}%`;
const signedPct = (n: number, decimals = 2) => `${n > 0 ? '+' : ''}${n.toFixed(decimals)}%`;
const GAUGE = 40;
const SMALL_GAUGE = 18;
/** Cells on each side of the calibration chart's zero. */
const HALF = 18;

export function renderRecord(record: RecordStats, { width }: { width: number | undefined }): Line[] {
  const chart = width !== undefined;
  const lines: Line[] = ['', "record: each post against its cell's price 3 hours after the thread"];
  const waiting = [
    record.pending ? `${record.pending} pending` : '',
    record.unresolvable ? `${record.unresolvable} never resolvable (no price near 3 hours on)` : '',
  ].filter(Boolean);
  if (record.resolved === 0) {
    lines.push(
      `  nothing resolved yet${waiting.length ? ` (${waiting.join(', ')})` : ''}: a post is resolved once the polls have read its cell's price 3 hours later`,
    );
    return lines;
  }
  lines.push(
    `  ${record.resolved} resolved${waiting.length ? ` (${waiting.join(', ')})` : ''}: ${record.right} right, ${record.wrong} wrong, ${record.flat} flat`,
  );
  lines.push(`  ${hitRateText(record)}; mean |conviction - move| ${record.mae?.toFixed(2) ?? '-'} points`);
  if (chart && record.hitRate !== null) {
    const drawn: Line[] = [['  0% ', ...gauge(record, GAUGE), ' 100%']];
    if (fits(drawn, width)) {
      lines.push(...drawn);
      lines.push("     (\u25cf the hit rate, \u2501 its 95% interval, \u253c a coin's 50%)");
    }
  }
  const skipped =
    record.skipped.meanAbsMove === null
      ? 'no skipped thread resolved yet'
      : `skipped threads ${record.skipped.meanAbsMove.toFixed(2)}% (${record.skipped.resolved} resolved)`;
  lines.push(`  mean size of the move: posted threads ${record.meanAbsMove?.toFixed(2) ?? '-'}%, ${skipped}`);
  lines.push('', ...drawnIfFits(calibrationChart(record.calibration), calibrationRows(record.calibration), width));
  const groups = (kind: string, of: Record<string, RecordMetrics>) =>
    drawnIfFits(groupRows(kind, of, true), groupRows(kind, of, false), width);
  lines.push('', ...groups('cell', record.byCell));
  if (Object.keys(record.byAnalyzer).length) lines.push('', ...groups('analyzer', record.byAnalyzer));
  lines.push('', 'best calls:', ...record.best.map(callLine), 'worst calls:', ...record.worst.map(callLine));
  return lines;
}

/**
 * A chart only where every line of it fits the terminal: a drawn line cannot be wrapped, and a terminal
 * cuts it wherever its edge falls, mid-number. Else the plain rows, which wrap at their spaces.
 */
function drawnIfFits(drawn: Line[], plain: Line[], width: number | undefined): Line[] {
  return width !== undefined && fits(drawn, width) ? drawn : plain;
}

function fits(lines: readonly Line[], width: number | undefined): boolean {
  return width !== undefined && lines.every((line) => widthOf(line) <= width);
}

function hitRateText(m: RecordMetrics): string {
  if (m.hitRate === null || m.hitRateLow === null || m.hitRateHigh === null) return 'hit rate -';
  return `hit rate ${pct(m.hitRate)} (95% interval ${pct(m.hitRateLow)}-${pct(m.hitRateHigh)})`;
}

/**
 * 0% to 100%: the interval as a thick line, the hit rate as a dot, a coin's 50% as a tick. The dot is
 * painted by what the interval says: all above a coin, all below it, or not clear of it.
 */
function gauge(m: RecordMetrics, width: number): Piece[] {
  if (m.hitRate === null || m.hitRateLow === null || m.hitRateHigh === null) return [''.padEnd(width + 2)];
  const at = (fraction: number) => Math.min(width - 1, Math.round(fraction * (width - 1)));
  const cells = Array.from({ length: width }, () => '\u2500');
  cells[at(0.5)] = '\u253c';
  for (let i = at(m.hitRateLow); i <= at(m.hitRateHigh); i++) cells[i] = '\u2501';
  const dot = at(m.hitRate);
  const paint: Painted['paint'] = m.hitRateLow > 0.5 ? 'cyan' : m.hitRateHigh < 0.5 ? 'red' : 'yellow';
  return [`\u251c${cells.slice(0, dot).join('')}`, { paint, text: '\u25cf' }, `${cells.slice(dot + 1).join('')}\u2524`];
}

function calibrationRows(rows: readonly CalibrationRow[]): string[] {
  const lines = [
    'calibration by size (mean move in the predicted direction, against the size predicted):',
    `  ${'size'.padEnd(12)} ${'posts'.padStart(6)} ${'predicted'.padStart(10)} ${'realized'.padStart(10)}`,
  ];
  for (const row of rows)
    lines.push(
      `  ${sizeLabel(row).padEnd(12)} ${String(row.posts).padStart(6)} ${signedPct(row.meanPredicted).padStart(10)} ${signedPct(row.meanRealized).padStart(10)}`,
    );
  return lines;
}

/**
 * One row a size: the move realized in the predicted direction as a bar from zero (right of it when the
 * calls were right on average), and the size predicted as a marker where a calibrated agent's bar would end.
 */
function calibrationChart(rows: readonly CalibrationRow[]): Line[] {
  const scale = Math.max(0.5, ...rows.flatMap((r) => [Math.abs(r.meanRealized), r.meanPredicted]));
  const cellsOf = (value: number) => Math.min(HALF, Math.round((Math.abs(value) / scale) * HALF));
  const edge = `${scale.toFixed(1)}%`;
  const lines: Line[] = [
    [
      'calibration: mean move the way it was called (bar), against the size called (',
      { paint: 'yellow', text: '\u25c6' },
      ')',
    ],
    `  ${'size'.padEnd(10)} ${'posts'.padStart(5)}  ${`-${edge}`.padEnd(HALF)}0${`+${edge}`.padStart(HALF)}`,
  ];
  for (const row of rows) {
    const cells: Piece[] = Array.from({ length: 2 * HALF + 1 }, (_, i) => (i === HALF ? '\u2502' : ' '));
    const bar = cellsOf(row.meanRealized);
    const right = row.meanRealized >= 0;
    for (let i = 1; i <= bar; i++)
      cells[right ? HALF + i : HALF - i] = { paint: right ? 'cyan' : 'red', text: '\u2588' };
    cells[HALF + Math.max(1, cellsOf(row.meanPredicted))] = { paint: 'yellow', text: '\u25c6' };
    lines.push([
      `  ${sizeLabel(row).padEnd(10)} ${String(row.posts).padStart(5)}  `,
      ...joined(cells),
      `  ${signedPct(row.meanRealized)} for ${row.meanPredicted.toFixed(2)}%`,
    ]);
  }
  return lines;
}

function groupRows(kind: string, groups: Record<string, RecordMetrics>, chart: boolean): Line[] {
  const lines: Line[] = [
    `${kind.padEnd(16)} ${'resolved'.padStart(8)} ${'hit rate'.padStart(9)} ${'95% interval'.padStart(14)} ${'mae'.padStart(6)}${chart ? '  0%-100%' : ''}`,
  ];
  const sorted = Object.entries(groups).sort(([a, x], [b, y]) => y.resolved - x.resolved || (a < b ? -1 : 1));
  for (const [name, m] of sorted.slice(0, 15)) {
    const interval =
      m.hitRateLow === null || m.hitRateHigh === null ? '-' : `${pct(m.hitRateLow)}-${pct(m.hitRateHigh)}`;
    const row = `${oneLine(name, 16).padEnd(16)} ${String(m.resolved).padStart(8)} ${(m.hitRate === null ? '-' : pct(m.hitRate)).padStart(9)} ${interval.padStart(14)} ${(m.mae === null ? '-' : m.mae.toFixed(2)).padStart(6)}`;
    lines.push(chart ? [`${row}  `, ...gauge(m, SMALL_GAUGE)] : row);
  }
  return lines;
}

function callLine(call: Call): string {
  const when = call.decidedAt.slice(0, 16).replace('T', ' ');
  return `  ${signedPct(call.conviction, 1).padStart(7)} on ${oneLine(call.cell, 16).padEnd(16)} moved ${signedPct(call.move).padStart(7)}  ${oneLine(call.threadId, 40)}  ${when}`;
}

function sizeLabel(row: CalibrationRow): string {
  return row.to === null ? `${row.from.toFixed(1)}%+` : `${row.from.toFixed(1)}-${row.to.toFixed(1)}%`;
}

/** Neighbouring plain pieces as one string: fewer pieces for the output to paint. */
function joined(pieces: readonly Piece[]): Piece[] {
  const out: Piece[] = [];
  for (const piece of pieces) {
    const last = out[out.length - 1];
    if (typeof piece === 'string' && typeof last === 'string') out[out.length - 1] = last + piece;
    else out.push(piece);
  }
  return out;
}
