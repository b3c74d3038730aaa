import path from 'node:path';
import type { Context } from '../../context.js';
import { parseDuration } from '../../domain/duration.js';
import { maskKnownKeys } from '../../history/mask.js';
import { HISTORY_FILE, readHistory, readNotes } from '../../history/log.js';
import { loadOutcomes } from '../../record/history-outcomes.js';
import { renderRecord } from '../../record/record-render.js';
import { recordStats } from '../../record/record-stats.js';
import { aggregate } from './aggregate.js';
import { fitLines } from '../../output/wrap.js';
import { renderStats } from './render.js';

/** The flags as commander gives them; parsed here. */
export interface StatsOptions {
  since?: string;
}

/** `agent stats [--since 7d]`: how the agent is doing, from its history (docs/cli.md). */
export async function runStats(ctx: Context, options: StatsOptions): Promise<void> {
  const span = parseDuration(options.since ?? '7d', '--since');
  const now = ctx.timing.now();
  const mask = maskKnownKeys(ctx);
  const read = readHistory(ctx.configDir, { since: now - span });
  for (const note of readNotes(read)) ctx.output.warn(note);
  // Masked once summed up: its cells and reasons are the text in it, a few dozen strings, not a month of records.
  const summed = aggregate(read.records.reverse(), now - span, now);
  const stats = { ...summed, cells: mask(summed.cells), skips: mask(summed.skips) };
  // What the posts did (docs/record.md#the-record-was-it-right), from the outcomes the polls resolved.
  const record = mask(recordStats(read.records, loadOutcomes(ctx, now - span), now - span, now));
  if (stats.runs.poll + stats.runs.predict === 0) {
    const file = path.join(ctx.configDir, HISTORY_FILE);
    const latest = readHistory(ctx.configDir, { limit: 1 }).records[0];
    const when = latest
      ? `nothing was recorded in that time; the latest entry is from ${latest.ts.slice(0, 16).replace('T', ' ')} UTC (try a longer --since)`
      : `there is no history yet in ${file}: every poll adds to it, so a day of polls from cron gives a first picture`;
    ctx.output.result(`No stats yet: ${when}.`, { ...stats, record });
    return;
  }
  const width = ctx.output.columns;
  const lines = [...renderStats(stats, { width }), ...renderRecord(record, { width })];
  ctx.output.result(width === undefined ? lines : fitLines(lines, width), { ...stats, record });
}
