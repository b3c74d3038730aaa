import { oneLine } from '../output/sanitize.js';
import type { Stats } from './aggregate.js';

const BARS = ['\u2581', '\u2582', '\u2583', '\u2584', '\u2585', '\u2586', '\u2587', '\u2588'];

/** A row of block characters, one per value, scaled from the smallest value to the largest. */
export function sparkline(values: readonly number[]): string {
  if (!values.length) return '';
  const min = Math.min(...values);
  const span = Math.max(...values) - min;
  return values
    .map((v) => BARS[span === 0 ? (v === 0 ? 0 : 3) : Math.round(((v - min) / span) * (BARS.length - 1))])
    .join('');
}

const paint = (colour: boolean, code: number, text: string) => (colour ? `\u001b[${code}m${text}\u001b[39m` : text);

/**
 * Stats as lines. On a terminal (`chart`) the days and the counters are drawn as sparklines, in colour
 * only where `colour` allows; elsewhere every number is a plain aligned row a script or a mail can read.
 */
export function renderStats(stats: Stats, { chart, colour }: { chart: boolean; colour: boolean }): string[] {
  const lines: string[] = [];
  const period = `${stats.from.slice(0, 16).replace('T', ' ')} to ${stats.to.slice(0, 16).replace('T', ' ')} UTC`;
  lines.push(
    `${period}: ${stats.runs.poll} polls (${stats.runs.failed} ended with an error), ${stats.runs.predict} predicts by hand`,
  );
  const size = stats.meanAbsConviction === null ? '' : `, mean size ${stats.meanAbsConviction.toFixed(2)}%`;
  lines.push(`posted ${stats.posts}${size}; skipped ${stats.skips.total}; failed ${stats.failures}`);
  if (stats.skips.byReason.length) {
    lines.push('', 'skips by reason:');
    for (const { reason, count } of stats.skips.byReason.slice(0, 8))
      lines.push(`  ${String(count).padStart(6)}  ${oneLine(reason, 90)}`);
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
  if (chart) {
    const perDay = stats.postsPerDay.map((d) => d.posts);
    lines.push(
      `posts a day   ${paint(colour, 36, sparkline(sample(perDay, 60)))}  (${stats.postsPerDay[0]?.day ?? ''} to today, at most ${Math.max(0, ...perDay)})`,
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
  if (chart && first && last) {
    const row = (name: string, code: number, pick: (c: (typeof daily)[number]) => number) =>
      `${name.padEnd(13)} ${paint(colour, code, sparkline(sample(daily, 60).map(pick)))}  ${pick(first)} -> ${pick(last)}`;
    lines.push(
      '',
      row('honey', 33, (c) => c.honey),
      row('wax', 31, (c) => c.wax),
      row('predictions', 36, (c) => c.predictions),
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
  return lines;
}

/** At most `n` of the values, evenly spread, the last one always in: a chart fits a terminal's width. */
function sample<T>(values: readonly T[], n: number): T[] {
  if (values.length <= n) return [...values];
  return Array.from({ length: n }, (_, i) => values[Math.round((i * (values.length - 1)) / (n - 1))] as T);
}
