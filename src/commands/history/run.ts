import path from 'node:path';
import type { Context } from '../../context.js';
import { parseDuration } from '../../domain/duration.js';
import { UsageError } from '../../errors.js';
import { oneLine } from '../../output/sanitize.js';
import { fitLines } from '../../output/wrap.js';
import {
  loadOutcomes,
  OUTCOME_WIDTH,
  type Outcomes,
  outcomeColumn,
  withOutcome,
} from '../../record/history-outcomes.js';
import { maskKnownKeys } from '../../history/mask.js';
import { HISTORY_FILE, readHistory, readNotes } from '../../history/log.js';
import { type HistoryEntry, skipKindOf } from '../../history/entry.js';

export interface HistoryOptions {
  since?: string;
  limit?: string;
}

/** `agent history`: what this agent did, newest first (docs/cli.md). */
export async function runHistory(ctx: Context, options: HistoryOptions): Promise<void> {
  const sinceMs = options.since === undefined ? undefined : parseDuration(options.since, '--since');
  const limit = parseLimit(options.limit);
  const mask = maskKnownKeys(ctx);
  const since = sinceMs === undefined ? undefined : ctx.timing.now() - sinceMs;
  const read = readHistory(ctx.configDir, { since, limit });
  for (const note of readNotes(read)) ctx.output.warn(note);
  const entries = mask(read.records);
  if (!entries.length) {
    const file = path.join(ctx.configDir, HISTORY_FILE);
    const why =
      since !== undefined && readHistory(ctx.configDir, { limit: 1 }).records.length
        ? 'nothing in that time'
        : `no history yet in ${file}: every poll and predict adds to it`;
    ctx.output.result(`Nothing to show (${why}).`, { entries: [] });
    return;
  }
  const outcomes = loadOutcomes(ctx);
  const columns = columnWidths(entries);
  const lines = entries.map((record) => line(record, columns, outcomes));
  const width = ctx.output.columns;
  ctx.output.result(width === undefined ? lines : fitLines(lines, width), {
    entries: mask(entries.map((record) => withOutcome(withSkipKind(record), outcomes))),
  });
}

function parseLimit(raw: string | undefined): number {
  if (raw === undefined) return 50;
  const n = Number(raw);
  if (!/^\d+$/.test(raw.trim()) || n < 1)
    throw new UsageError(
      `--limit must be a whole number of entries, 1 or more (got ${JSON.stringify(oneLine(raw, 20))})`,
    );
  return n;
}

/** The cell and thread columns: as wide as the widest shown, up to a cap (a longer one is cut). */
const CELL_MAX = 20;
const THREAD_MAX = 24;

function columnWidths(entries: readonly HistoryEntry[]): { cell: number; thread: number } {
  const widest = (pick: (r: HistoryEntry) => string | undefined, max: number) =>
    Math.min(max, Math.max(0, ...entries.map((r) => Array.from(oneLine(pick(r) ?? '', max)).length)));
  return { cell: widest((r) => r.cell, CELL_MAX), thread: widest((r) => r.threadId, THREAD_MAX) };
}

/**
 * One entry as one line: when, what, what came of it (docs/record.md#the-record-was-it-right), and on which cell and thread,
 * each in its column.
 */
function line(record: HistoryEntry, columns: { cell: number; thread: number }, outcomes: Outcomes): string {
  const when = record.ts.slice(0, 16).replace('T', ' ');
  const where = `${pad(record.cell, CELL_MAX, columns.cell)}  ${pad(record.threadId, THREAD_MAX, columns.thread)}`;
  switch (record.kind) {
    case 'post':
      return `${when}  posted   ${signed(record.conviction ?? 0).padStart(7)} ${outcomeColumn(record, outcomes)}  ${where}  ${oneLine(record.text ?? '', 300)}`;
    case 'skip':
      return `${when}  skipped  ${''.padStart(7)} ${outcomeColumn(record, outcomes)}  ${where}  ${oneLine(record.reason ?? '', 300)}`;
    case 'fail':
      return `${when}  failed   ${''.padStart(7)} ${''.padStart(OUTCOME_WIDTH)}  ${where}  ${oneLine(record.reason ?? '', 300)}`;
    case 'run': {
      const s = record.summary;
      if (!s) return `${when}  run`;
      const locked = s.locked ? ` (${s.locked} locked)` : '';
      const counters = s.counters
        ? `; honey ${s.counters.honey}, wax ${s.counters.wax}, ${s.counters.predictions} predictions`
        : '';
      const error = s.error ? `: ${oneLine(s.error, 300)}` : '';
      return `${when}  ${s.command.padEnd(8)} ${s.posted} posted, ${s.skipped} skipped${locked}, ${s.failed} failed, exit ${s.exitCode} in ${(s.elapsedMs / 1000).toFixed(1)} s${counters}${error}`;
    }
    case 'alert': {
      const routes = record.alert?.routes.map(({ route, answer }) => `${route} ${oneLine(answer, 120)}`).join(', ');
      const what = record.alert?.event === 'heartbeat' ? 'heartbeat' : `${record.alert?.event ?? ''} alert`;
      return `${when}  alert    ${what}: ${routes ?? ''}`;
    }
  }
}

/** A column's text, one line, cut at `max` and padded to `width` by what it shows (not by UTF-16 units). */
function pad(text: string | undefined, max: number, width: number): string {
  const shown = oneLine(text ?? '', max);
  return shown + ' '.repeat(Math.max(0, width - Array.from(shown).length));
}

function signed(n: number): string {
  return `${n > 0 ? '+' : ''}${n.toFixed(1)}%`;
}

/** A skip with its kind, also on a line written before skips carried one (`skipKindOf`). */
function withSkipKind(record: HistoryEntry): HistoryEntry {
  return record.kind === 'skip' ? { ...record, skipKind: skipKindOf(record) } : record;
}
