import { describeAgo } from '../../domain/duration.js';
import { oneLine } from '../../output/sanitize.js';
import type { Line, Painted } from '../../output/wrap.js';
import type { Stats } from './aggregate.js';

const BARS = ['\u2581', '\u2582', '\u2583', '\u2584', '\u2585', '\u2586', '\u2587', '\u2588'];
/** A chart row: its name in this many columns, then the bars, then what they went from and to. */
const LABEL = 14;
const MAX_BARS = 60;
const MIN_BARS = 8;

/** A row of block characters, one per value, scaled from the smallest value to the largest. */
export function sparkline(values: readonly number[]): string {
  if (!values.length) return '';
  const min = Math.min(...values);
  const span = Math.max(...values) - min;
  return values
    .map((v) => BARS[span === 0 ? (v === 0 ? 0 : 3) : Math.round(((v - min) / span) * (BARS.length - 1))])
    .join('');
}

/**
 * Stats as lines. On a terminal (`width` given) the days and the counters are drawn as sparklines that
 * fit it, painted (the output decides whether colour is allowed); elsewhere every number is a plain
 * aligned row a script or a mail can read.
 */
export function renderStats(stats: Stats, { width }: { width: number | undefined }): Line[] {
  const lines: Line[] = [];
  const { runs } = stats;
  const period = `${stats.from.slice(0, 16).replace('T', ' ')} to ${stats.to.slice(0, 16).replace('T', ' ')} UTC`;
  const predictsFailed = runs.failedPredicts ? ` (${runs.failedPredicts} ended with an error)` : '';
  lines.push(
    `${period}: ${runs.poll} polls (${runs.failedPolls} ended with an error), ${runs.predict} predicts by hand${predictsFailed}`,
  );
  const size = stats.meanAbsConviction === null ? '' : `, mean size ${stats.meanAbsConviction.toFixed(2)}%`;
  lines.push(`posted ${stats.posts}${size}; skipped ${stats.skips.total}; failed ${stats.failures}`);
  if (stats.skips.byReason.length) {
    lines.push('', 'skips by reason:');
    // Every kind: there are few, and the rows add up to the skips counted above.
    for (const { reason, count } of stats.skips.byReason)
      lines.push(`  ${String(count).padStart(6)}  ${oneLine(reason, 200)}`);
  }
  if (stats.cells.length) {
    lines.push('', `${'cell'.padEnd(16)} ${'posts'.padStart(6)} ${'skips'.padStart(6)} ${'mean size'.padStart(10)}`);
    for (const c of stats.cells.slice(0, 15)) {
      const mean = c.meanAbsConviction === null ? '-' : `${c.meanAbsConviction.toFixed(2)}%`;
      lines.push(
        `${oneLine(c.cell, 16).padEnd(16)} ${String(c.posts).padStart(6)} ${String(c.skips).padStart(6)} ${mean.padStart(10)}`,
      );
    }
  }
  lines.push('');
  // A chart row fits the terminal: as many bars as leave room for its name and what follows them, which
  // goes on a line of its own below when even the fewest bars leave too little.
  const chartRow = (name: string, paint: Painted['paint'], values: readonly number[], after: string): Line[] => {
    const room = (width ?? 0) - LABEL - 2 - after.length;
    const bars = Math.max(MIN_BARS, Math.min(MAX_BARS, room));
    const chart = { paint, text: sparkline(sample(values, bars)) };
    return room >= MIN_BARS
      ? [[name.padEnd(LABEL), chart, `  ${after}`]]
      : [[name.padEnd(LABEL), chart], `${' '.repeat(LABEL)}${after}`];
  };
  if (width !== undefined) {
    const perDay = stats.postsPerDay.map((d) => d.posts);
    lines.push(
      ...chartRow(
        'posts a day',
        'cyan',
        perDay,
        `(${stats.postsPerDay[0]?.day ?? ''} to today, at most ${Math.max(0, ...perDay)})`,
      ),
    );
  } else {
    lines.push('posts a day (UTC):');
    for (const d of stats.postsPerDay) lines.push(`  ${d.day}  ${String(d.posts).padStart(5)}`);
  }
  if (!stats.counters.length) {
    lines.push(
      '',
      'honey, wax and predictions: no snapshot yet (a poll takes one an hour; stats draws them once there are some)',
    );
    return lines;
  }
  // A snapshot an hour is too many to show: the last of each day, the way a person reads a trend.
  const daily = [...new Map(stats.counters.map((c) => [c.ts.slice(0, 10), c])).values()];
  const first = daily[0];
  const last = daily[daily.length - 1];
  if (width !== undefined && first && last) {
    const row = (name: string, paint: Painted['paint'], pick: (c: (typeof daily)[number]) => number) =>
      chartRow(name, paint, daily.map(pick), `${pick(first)} -> ${pick(last)}`);
    lines.push(
      '',
      ...row('honey', 'yellow', (c) => c.honey),
      ...row('wax', 'red', (c) => c.wax),
      ...row('predictions', 'cyan', (c) => c.predictions),
    );
  } else {
    lines.push(
      '',
      `${'day (UTC)'.padEnd(12)} ${'honey'.padStart(10)} ${'wax'.padStart(10)} ${'predictions'.padStart(12)}`,
    );
    for (const c of daily) {
      lines.push(
        `${c.ts.slice(0, 10).padEnd(12)} ${String(c.honey).padStart(10)} ${String(c.wax).padStart(10)} ${String(c.predictions).padStart(12)}`,
      );
    }
  }
  // A poll takes a snapshot an hour at most: the service's numbers may have moved a lot since the last.
  const latest = stats.counters[stats.counters.length - 1];
  if (latest)
    lines.push(
      `last snapshot ${latest.ts.slice(0, 16).replace('T', ' ')} UTC, ${describeAgo(Date.parse(stats.to) - Date.parse(latest.ts))} (\`agent me\` asks the service now)`,
    );
  return lines;
}

/** At most `n` of the values, evenly spread, the last one always in: a chart fits a terminal's width. */
function sample<T>(values: readonly T[], n: number): T[] {
  if (values.length <= n) return [...values];
  return Array.from({ length: n }, (_, i) => values[Math.round((i * (values.length - 1)) / (n - 1))] as T);
}
