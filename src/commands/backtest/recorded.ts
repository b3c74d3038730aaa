import { type ReplayOptions, replayAndReport, withAnalyzer } from './measure.js';
import { type BacktestFile, type BacktestThread, parseBacktestData } from '../../backtest/file.js';
import { registeredProfile } from '../../backtest/registered-profile.js';
import type { BacktestReport } from '../../backtest/replay.js';
import type { Context } from '../../context.js';
import { stateStore } from '../../session.js';
import { parseDuration } from '../../domain/duration.js';
import { cellOf, type TypicalMove } from '../../domain/thread.js';
import { UsageError } from '../../errors.js';
import { outcomeKey, readOutcomes } from '../../record/outcomes.js';
import { readAllLines } from '../../record/private-lines.js';
import { resolveThread } from '../../record/resolve.js';
import { parsePriceLine, pricesFile, type Sample, WalkedSamples } from '../../record/samples.js';
import { buildSeries } from '../../record/series.js';
import { threadsFile } from '../../record/thread-texts.js';
import { measureTypicalMoves } from '../../record/typical-move.js';

export interface RecordedOptions extends ReplayOptions {
  analyzer?: string;
  since?: string;
}

const DAY_MS = 24 * 60 * 60_000;

/**
 * `agent backtest --recorded`: the open threads this agent read (their texts are in threads.jsonl) replayed
 * through an analyzer and a profile, each against its own realized 3-hour move from the recorded prices.
 * Without look-ahead: the analyzer sees a thread as it was at its time (backtest/replay.ts), and a post is sized
 * by the typical moves measured from the prices recorded before the thread's day began.
 */
export async function backtestRecorded(options: RecordedOptions, ctx: Context): Promise<void> {
  const span = parseDuration(options.since ?? '30d', '--since');
  const now = ctx.timing.now();
  const dir = stateStore(ctx).dir;
  const since = now - span;
  // Read before any analyzer is started: an empty record is said at once, not after a model has loaded.
  const { file, pending, unresolvable, samples } = recordedThreads(dir, since);
  const ran = ranOn(dir, file.threads);
  // What this agent ran is the baseline: its registered profile, unless the flags say otherwise.
  const registered = await registeredProfile(options, ctx);
  const label = `the threads this agent read since ${new Date(since).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  await withAnalyzer(options, ctx, (analyzer, describe, slow) =>
    replayAndReport(
      () => file,
      {
        label,
        json: {
          recorded: { since: new Date(since).toISOString(), threads: file.threads.length, pending, unresolvable, ran },
        },
        typicalMoveAt: typicalMoveBeforeDay(samples),
        after: (report) => ranLines(ran, report, pending, unresolvable),
      },
      { ...options, registered },
      ctx,
      analyzer,
      describe,
      slow,
    ),
  );
}

/** The recorded open threads since `since` that have a realized move, as a backtest file would hold them. */
export function recordedThreads(
  dir: string,
  since: number,
): { file: BacktestFile; pending: number; unresolvable: number; samples: Sample[] } {
  const read = new WalkedSamples();
  for (const line of readAllLines(pricesFile(dir)).reverse()) read.take(parsePriceLine(line));
  const samples = read.samples.reverse();
  const series = buildSeries(samples, read.walkedMs);
  const seen = new Set<string>();
  const entries: unknown[] = [];
  let pending = 0;
  let unresolvable = 0;
  for (const line of readAllLines(threadsFile(dir))) {
    const read = parseThreadLine(line);
    if (!read || seen.has(read.thread.id) || !(read.readAtMs >= since)) continue;
    const { thread } = read;
    seen.add(thread.id);
    const resolved = resolveThread(series, thread.id, cellOf(thread.project_id));
    if (resolved.status === 'pending') pending += 1;
    else if (resolved.status === 'unresolvable') unresolvable += 1;
    else entries.push({ ...thread, price_on_eval: resolved.p3h });
  }
  if (!entries.length) {
    const why = seen.size
      ? `none of the ${seen.size} recorded since then has a realized move yet (${pending} pending, ${unresolvable} without a price 3 hours on)`
      : 'none was recorded in that time: every poll records the open threads it reads';
    throw new UsageError(`nothing to replay: ${why}`, { hint: 'try a longer --since, or again after more polls' });
  }
  return { file: parseBacktestData(entries, 'the record'), pending, unresolvable, samples };
}

/**
 * A line of threads.jsonl: the thread's own fields, and when it was read (`--since` counts from then: a
 * poll after a gap records threads made hours before; a line without it counts from the thread's time).
 */
function parseThreadLine(
  line: string,
):
  | { thread: Record<string, unknown> & { id: string; project_id: string; timestamp: string }; readAtMs: number }
  | undefined {
  try {
    const value: unknown = JSON.parse(line);
    if (typeof value !== 'object' || value === null) return undefined;
    const v = value as Record<string, unknown>;
    if (typeof v.id !== 'string' || typeof v.project_id !== 'string' || typeof v.timestamp !== 'string')
      return undefined;
    // Only the thread's own fields: the time it was read is not the thread's.
    const { readAt, ...thread } = v;
    const readAtMs = Date.parse(typeof readAt === 'string' ? readAt : v.timestamp);
    return {
      thread: thread as Record<string, unknown> & { id: string; project_id: string; timestamp: string },
      readAtMs,
    };
  } catch {
    return undefined;
  }
}

/** For each thread, the typical moves measured from the samples dated before its UTC day began. */
function typicalMoveBeforeDay(samples: readonly Sample[]): (thread: BacktestThread) => TypicalMove | undefined {
  const byDay = new Map<number, Map<string, TypicalMove>>();
  return (thread) => {
    const day = Math.floor(thread.timestampMs / DAY_MS) * DAY_MS;
    let moves = byDay.get(day);
    if (!moves) {
      moves = measureTypicalMoves(
        samples.filter((s) => s.ms < day),
        day,
      );
      byDay.set(day, moves);
    }
    return moves.get(cellOf(thread.project_id));
  };
}

/** What this agent itself posted on the replayed threads, by the backtest's own definitions (metrics.ts). */
interface Ran {
  posted: number;
  right: number;
  accuracy: number | null;
  mae: number | null;
}

function ranOn(dir: string, threads: readonly BacktestThread[]): Ran {
  const { outcomes } = readOutcomes(dir);
  let posted = 0;
  let right = 0;
  let error = 0;
  for (const thread of threads) {
    const outcome = outcomes.get(outcomeKey('post', thread.id));
    if (outcome?.move == null || outcome.conviction === undefined) continue;
    posted += 1;
    if (outcome.conviction * outcome.move > 0) right += 1;
    error += Math.abs(outcome.conviction - outcome.move);
  }
  return {
    posted,
    right,
    accuracy: posted ? Math.round((right / posted) * 1000) / 1000 : null,
    mae: posted ? Math.round((error / posted) * 100) / 100 : null,
  };
}

function ranLines(ran: Ran, report: BacktestReport, pending: number, unresolvable: number): string[] {
  const pct = (n: number | null) => (n === null ? '-' : `${(n * 100).toFixed(1)}%`);
  const left =
    pending + unresolvable
      ? [`Left out: ${pending} thread(s) still waiting for their 3-hour price, ${unresolvable} without one.`]
      : [];
  return [
    '',
    `What this agent posted on these threads: ${ran.posted} posts, accuracy ${pct(ran.accuracy)}, MAE ${ran.mae?.toFixed(2) ?? '-'};`,
    `this replay: ${report.overall.posted} posts, accuracy ${pct(report.overall.accuracy)}, MAE ${report.overall.mae?.toFixed(2) ?? '-'}.`,
    ...left,
  ];
}
