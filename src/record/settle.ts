import { HISTORY_LIMIT_BYTES } from '../history/log.js';
import { maskStrings } from '../history/mask.js';
import { type HistoryEntry, parseRecord } from '../history/entry.js';
import { appendLines, lineFile, readLinesBackward } from './private-lines.js';
import {
  type Decided,
  type OutcomeRecord,
  outcomeKey,
  outcomeLine,
  outcomesFile,
  parseOutcome,
  parseSettled,
  type SettledMark,
  settledLine,
  usedSample,
  writtenAt,
} from './outcomes.js';
import { GIVE_UP_MS, HORIZON_MS, resolveThread, rightOf } from './resolve.js';
import { parsePriceLine, pricesFile, type Sample, WalkedSamples } from './samples.js';
import { buildSeries } from './series.js';

/**
 * Posts and skips this far back are still looked at: far more than the 9 hours an outcome can take, so
 * that the first run after days without polls still resolves what came before the gap.
 */
export const LOOKBACK_MS = 8 * 24 * 60 * 60_000;

export interface SettleDeps {
  dir: string;
  now: number;
  /** Masks the key (Output.redact): nothing written to the record may hold it. */
  redact: (text: string) => string;
  /** Where outcomes.jsonl rotates (OUTCOMES_LIMIT_BYTES): smaller in a test of a busy feed. */
  outcomesLimitBytes?: number;
}

/**
 * Resolves every post and skip of the last days that has no outcome yet and that the recorded prices can
 * now tell (resolve.ts), and appends the outcomes. Reads only the ends of the files that hold them: the
 * history and the outcomes back to LOOKBACK_MS, the prices back to what the pending decisions need. Returns
 * the outcomes written. Throws what reading or writing threw; the caller says it and goes on.
 */
export function settleRecord({ dir, now, redact, outcomesLimitBytes }: SettleDeps): OutcomeRecord[] {
  const since = now - LOOKBACK_MS;
  const { pending: found, last } = pendingDecisions(dir, since);
  // Long told by the last settle (its walk and its clock were both past all that can keep one pending): left
  // out before any price is read, so that a busy feed's rotated outcomes cost no reading back either.
  const pending = last ? found.filter((record) => !longTold(Date.parse(record.ts), last)) : found;
  if (!pending.length) return [];
  const { samples, walkedMs, reachedMs } = samplesFor(dir, pending, since);
  const series = buildSeries(samples, walkedMs);
  const then = last && buildSeries(samples, last.walkedMs);
  const written: OutcomeRecord[] = [];
  for (const record of pending) {
    // Told by the last settle already, and rotated away since: never worked out and written again.
    if (last && then && Date.parse(record.ts) <= last.at && outcomeOf(record, then, last.at, reachedMs)) continue;
    const outcome = outcomeOf(record, series, now, reachedMs);
    if (outcome) written.push(outcome);
  }
  if (!written.length) return written;
  const lines = written.map((o) => `${outcomeLine(maskStrings(o, redact))}\n`).join('');
  const mark = Number.isFinite(walkedMs) ? `${settledLine({ at: now, walkedMs })}\n` : '';
  // The outcomes of the look-back (stats' week among them) are not moved away while the files can hold them.
  appendLines(outcomesFile(dir, outcomesLimitBytes), lines + mark, (newest) => writtenAt(newest) >= since);
  return written;
}

/** A thread is decided on after its own time, and told by 9 hours after it by the walk and by the clock. */
function longTold(decidedMs: number, last: SettledMark): boolean {
  const told = decidedMs + HORIZON_MS + GIVE_UP_MS + MARGIN_MS;
  return told <= last.walkedMs && told <= last.at;
}

type Decision = HistoryEntry & { kind: Decided; threadId: string; cell: string };

function outcomeOf(
  record: Decision,
  series: ReturnType<typeof buildSeries>,
  now: number,
  reachedMs: number,
): OutcomeRecord | undefined {
  const resolvedAt = new Date(now).toISOString();
  const extra = record as unknown as Record<string, unknown>;
  const head = {
    resolvedAt,
    threadId: record.threadId,
    kind: record.kind,
    cell: record.cell,
    ...(record.kind === 'post' && record.conviction !== undefined ? { conviction: record.conviction } : {}),
    ...(typeof extra.analyzer === 'string' ? { analyzer: extra.analyzer } : {}),
    ...(extra.fallback === true ? { fallback: true } : {}),
    decidedAt: record.ts,
  };
  const resolution = resolveThread(series, record.threadId, record.cell);
  if (resolution.status === 'pending') return undefined;
  if (resolution.status === 'unresolvable') {
    let reason = resolution.reason;
    if (!series.byThread.has(record.threadId)) {
      const decidedMs = Date.parse(record.ts);
      // Decided before the oldest price the files still hold: the record began after it (or was rotated).
      if (decidedMs < reachedMs)
        reason = 'no price was recorded for the thread (decided before the record of prices reaches back)';
      // A thread dated ahead of the clock gets its price recorded once its time comes: until it could
      // no longer be resolved by the clock (3 hours and the 6 of giving up), it stays pending.
      else if (now - decidedMs < HORIZON_MS + GIVE_UP_MS) return undefined;
    }
    return { ...head, move: null, right: null, unresolvable: reason };
  }
  const { move, p0, t0, p3h, samples, dropped } = resolution;
  return {
    ...head,
    thread: { ts: new Date(t0).toISOString(), price: p0 },
    move,
    right: record.kind === 'post' && record.conviction !== undefined ? rightOf(record.conviction, move) : null,
    price: Math.round(p3h * 1e8) / 1e8,
    samples: samples.map(usedSample),
    ...(dropped.length ? { dropped: dropped.map(usedSample) } : {}),
  };
}

const TS = /^\{"(?:ts|resolvedAt)":"([^"]+)"/;

/**
 * The posts and skips since `since` (newest first) that name a thread and a cell and have no outcome in
 * the files, and the last settle's mark.
 */
function pendingDecisions(dir: string, since: number): { pending: Decision[]; last: SettledMark | undefined } {
  const done = new Set<string>();
  let last: SettledMark | undefined;
  readLinesBackward(outcomesFile(dir), (line) => {
    const outcome = parseOutcome(line);
    if (outcome) done.add(outcomeKey(outcome.kind, outcome.threadId));
    else last ??= parseSettled(line);
    return !outcome || Date.parse(outcome.resolvedAt) >= since;
  });
  const pending: Decision[] = [];
  const seen = new Set<string>();
  readLinesBackward(lineFile(dir, 'history', HISTORY_LIMIT_BYTES), (line) => {
    const ts = Date.parse(TS.exec(line)?.[1] ?? '');
    if (ts < since) return false;
    // Most lines are runs' summaries: only posts and skips are parsed.
    if (!line.includes('"kind":"post"') && !line.includes('"kind":"skip"')) return true;
    let record: HistoryEntry | undefined;
    try {
      record = parseRecord(JSON.parse(line));
    } catch {
      return true;
    }
    if (!record || (record.kind !== 'post' && record.kind !== 'skip') || !record.threadId || !record.cell) return true;
    const key = outcomeKey(record.kind, record.threadId);
    if (done.has(key) || seen.has(key)) return true;
    seen.add(key);
    pending.push(record as Decision);
    return true;
  });
  return { pending, last };
}

/**
 * Every recorded sample an outcome of these decisions can use, and how far back the files reached. A
 * thread's prices were read at or after its own time, and so were the prices 3 hours on: the batches are
 * read back (by the local clock of their reads) to before the oldest pending decision and before the
 * oldest of their threads' own times, never past `bound`. What else is pending changes nothing.
 */
function samplesFor(
  dir: string,
  pending: readonly Decision[],
  bound: number,
): { samples: Sample[]; walkedMs: number; reachedMs: number } {
  const wanted = new Set(pending.map((record) => record.threadId));
  let from = Math.min(...pending.map((record) => Date.parse(record.ts))) - MARGIN_MS;
  const read = new WalkedSamples();
  let reachedMs = Number.POSITIVE_INFINITY;
  readLinesBackward(pricesFile(dir), (line) => {
    const parsed = parsePriceLine(line);
    read.take(parsed);
    if (parsed?.kind === 'sample') {
      if (wanted.has(parsed.sample.threadId)) from = Math.min(from, parsed.sample.ms - MARGIN_MS);
    } else if (parsed?.kind === 'readAt') {
      reachedMs = parsed.ms;
      if (parsed.ms < Math.max(from, bound)) return false;
    }
    return true;
  });
  // Read newest first; the series wants them in the order recorded (a thread's p0 is its first price).
  return { samples: read.samples.reverse(), walkedMs: read.walkedMs, reachedMs };
}

/** Slack for a batch's read time against the threads in it. */
const MARGIN_MS = 5 * 60_000;
