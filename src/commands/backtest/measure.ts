import { ANALYSIS_CONCURRENCY } from '../../analysis/concurrency.js';
import type { Analyzer } from '../../analysis/types.js';
import { type BacktestFile, type BacktestThread, readBacktestFile, type InvalidThread } from '../../backtest/file.js';
import { registeredProfile } from '../../backtest/registered-profile.js';
import { runBacktestOn, type BacktestReport } from '../../backtest/replay.js';
import { headingLine, LEGEND, tableLines } from '../../backtest/table.js';
import type { Context } from '../../context.js';
import type { Profile } from '../../domain/profile.js';
import type { TypicalMove } from '../../domain/thread.js';
import { AnalyzerError } from '../../errors.js';
import type { Output } from '../../output/output.js';
import { profileFromFlags, type ProfileFlags } from '../../domain/inputs.js';

/**
 * The raw profile flags, as for `register` (each is checked against the interface's list), and the
 * registered agent's profile, which they override field by field, when there is one.
 */
export type ReplayOptions = ProfileFlags & { registered?: Profile };

/**
 * Without an agent registered: a profile in the middle of every range, so a backtest without flags
 * measures the reading, not a lean.
 */
export const BACKTEST_DEFAULT_PROFILE: Readonly<Profile> = {
  signal_method: 'sentiment',
  conviction_style: 'moderate',
  directional_bias: 'neutral',
  participation: 'moderate',
};

/** Shorter files finish before a bar would be worth drawing. */
const PROGRESS_MIN_THREADS = 20;
const BAR_WIDTH = 30;
const INVALID_SHOWN = 5;

/** `agent backtest <file>` with the configured analyzer, or the one --analyzer names (never its fallback). */
export async function backtestConfigured(
  file: string,
  options: ReplayOptions & { analyzer?: string },
  ctx: Context,
): Promise<void> {
  const registered = await registeredProfile(options, ctx);
  await withAnalyzer(options, ctx, (analyzer, describe, slow) =>
    replayFile(file, { ...options, registered }, ctx, analyzer, describe, slow),
  );
}

/**
 * Runs `work` with the analyzer a backtest measures: the configured one or --analyzer's, never its
 * fallback, with all the time it needs (not cron: a long file may take a model as long as it needs).
 */
export async function withAnalyzer(
  options: { analyzer?: string },
  ctx: Context,
  work: (analyzer: Analyzer, describe: string | undefined, slow: boolean) => Promise<void>,
): Promise<void> {
  const { loadAnalyzer } = await import('../../analysis/load.js');
  const { analyzer, config } = await loadAnalyzer(ctx, {
    override: options.analyzer,
    fallback: false,
    deadline: Number.POSITIVE_INFINITY,
  });
  // A result file should say what was measured: the command, or the model and where it ran.
  const describe =
    config.kind === 'command'
      ? config.command
      : config.kind === 'llm'
        ? `${config.llm.model} at ${config.llm.baseUrl.origin}`
        : undefined;
  try {
    await work(analyzer, describe, config.kind !== 'builtin');
  } finally {
    await analyzer.close?.();
  }
}

/**
 * Replays resolved threads through the analyzer the caller chose (and will
 * close) with the profile from the flags, and prints the metrics overall and per cell.
 * `describe`: which command or model the analyzer is, for the heading and `analyzerDetail` in --json.
 * `slow`: a command or a model, which reads threads side by side as in a poll.
 */
export async function replayFile(
  file: string,
  options: ReplayOptions,
  ctx: Context,
  analyzer: Analyzer,
  describe?: string,
  slow = false,
): Promise<void> {
  await replayAndReport(
    () => readBacktestFile(file),
    { label: file, json: { file } },
    options,
    ctx,
    analyzer,
    describe,
    slow,
  );
}

/** Where the threads came from: how the heading names them, what --json says of them, and their sizing. */
export interface BacktestSource {
  label: string;
  json: Record<string, unknown>;
  /** The typical move to size each thread's post by, as known at its time (backtest --recorded). */
  typicalMoveAt?: (thread: BacktestThread) => TypicalMove | undefined;
  /** Lines after the table: what the user's own posts did on the same threads, say. */
  after?: (report: BacktestReport) => string[];
}

/** `load` gives the threads once the profile flags are known to be valid: a bad flag never reads a file. */
export async function replayAndReport(
  load: () => BacktestFile,
  source: BacktestSource,
  options: ReplayOptions,
  ctx: Context,
  analyzer: Analyzer,
  describe?: string,
  slow = false,
): Promise<void> {
  const given = profileFromFlags(options);
  const base = options.registered ?? BACKTEST_DEFAULT_PROFILE;
  const profile: Profile = {
    signal_method: given.signal_method ?? base.signal_method,
    conviction_style: given.conviction_style ?? base.conviction_style,
    directional_bias: given.directional_bias ?? base.directional_bias,
    participation: given.participation ?? base.participation,
  };
  const { threads, invalid } = load();
  if (!ctx.output.json) warnInvalid(ctx.output, invalid);

  const bar = progressBar(ctx.output, threads.length);
  let report: BacktestReport;
  try {
    report = await runBacktestOn(
      threads,
      analyzer,
      profile,
      bar.update,
      slow ? ANALYSIS_CONCURRENCY : 1,
      source.typicalMoveAt,
    );
  } finally {
    bar.clear();
  }

  const failed = report.threads.filter((t) => t.action === 'failed');
  const firstFailure = failed[0] && `first, ${failed[0].threadId}: ${failed[0].reason ?? 'no reason given'}`;
  // Numbers from an analyzer that never answered measure nothing: a script must not read them as a result.
  if (failed.length > 0 && failed.length === report.threads.length) {
    throw new AnalyzerError(
      `the ${analyzer.name} analyzer answered none of the ${failed.length} thread(s); ${firstFailure}`,
      {
        hint: 'try it on one thread: agent analyze <threadId>, or agent analyze --stdin',
      },
    );
  }
  if (failed.length > 0)
    ctx.output.warn(
      `backtest: the analyzer failed on ${failed.length} of ${report.threads.length} thread(s); ${firstFailure}`,
    );

  const heading = headingLine({
    file: source.label,
    analyzer: describe ? `${analyzer.name} (${describe})` : analyzer.name,
    profile,
    given: Object.keys(given) as Array<keyof Profile>,
    rest: options.registered ? "the registered agent's" : 'defaults',
    invalid: invalid.length,
  });
  ctx.output.result([heading, '', ...tableLines(report), '', LEGEND, ...(source.after?.(report) ?? [])], {
    analyzer: analyzer.name,
    ...(describe ? { analyzerDetail: describe } : {}),
    profile,
    ...source.json,
    overall: report.overall,
    cells: report.cells,
    threads: report.threads,
    invalid,
  });
}

function warnInvalid(output: Output, invalid: readonly InvalidThread[]): void {
  for (const entry of invalid.slice(0, INVALID_SHOWN)) {
    output.warn(
      `backtest: left out the thread at index ${entry.index}${entry.id === undefined ? '' : ` (id ${entry.id})`}: ${entry.reason}`,
    );
  }
  if (invalid.length > INVALID_SHOWN)
    output.warn(`backtest: … and ${invalid.length - INVALID_SHOWN} more left out (--json lists them all)`);
}

/** A bar on a terminal's stderr, redrawn when the whole percentage changes, erased at the end. */
function progressBar(output: Output, total: number): { update?: (done: number, total: number) => void; clear(): void } {
  if (total <= PROGRESS_MIN_THREADS) return { clear() {} };
  let shown = -1;
  const update = (done: number, of: number) => {
    const percent = Math.floor((done * 100) / of);
    if (percent === shown) return;
    shown = percent;
    const filled = Math.round((done * BAR_WIDTH) / of);
    output.statusLine(
      `backtest [${'#'.repeat(filled)}${'.'.repeat(BAR_WIDTH - filled)}] ${percent}% (${done}/${of} threads)`,
    );
  };
  update(0, total);
  return { update, clear: () => output.statusLine(undefined) };
}
