import { stateStore, type Context } from '../context.js';
import { LIMITS } from '../domain/profile.js';
import { BusyError, EXIT, UsageError, type ExitCode } from '../errors.js';
import { exitCodeOf, isStateProblem, messageOf, recordRun } from '../history/record-run.js';
import { RunRecorder } from '../history/recorder.js';
import { pollCycle } from './cycle.js';
import { renderPoll } from './report.js';
import { acquireLock, type Lock } from '../state/lock.js';

export interface PollOptions {
  limit?: string;
  dryRun?: boolean;
}

/** `agent poll`: one polling cycle under the run lock (docs/cli.md `poll`). */
export async function runPoll(options: PollOptions, ctx: Context): Promise<ExitCode> {
  const limit = parseLimit(options.limit);
  const dryRun = options.dryRun === true;
  const started = ctx.timing.now();
  // A dry run changes nothing, so it takes no lock and is never turned away by one.
  let lock: Lock | undefined;
  try {
    lock = dryRun ? undefined : acquireLock({ dir: stateStore(ctx).dir, pid: ctx.pid, now: started, user: ctx.user });
  } catch (error) {
    if (!(error instanceof BusyError)) throw error;
    // Overlapping cron runs are normal (one-writer): the running one does the work; this one is quietly done.
    const empty = { posted: [], skipped: [], failed: [], cursor: stateStore(ctx).read()?.cursor ?? null };
    renderPoll(empty, ctx.output, { dryRun, elapsedMs: 0, note: error.message });
    return EXIT.ok;
  }
  // A dry run records nothing, as it changes nothing.
  const recorder = dryRun ? undefined : new RunRecorder('poll', ctx.timing.now);
  try {
    const code = await pollCycle({ limit, dryRun, started, recorder }, ctx);
    if (recorder) recordRun(ctx, recorder.finish(started, code));
    return code;
  } catch (error) {
    if (recorder && !isStateProblem(error))
      recordRun(ctx, recorder.finish(started, exitCodeOf(error), messageOf(error)));
    throw error;
  } finally {
    lock?.release();
  }
}

function parseLimit(raw: string | undefined): number {
  if (raw === undefined) return LIMITS.defaultThreadLimit;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > LIMITS.maxThreadLimit) {
    throw new UsageError(
      `--limit must be a whole number from 1 to ${LIMITS.maxThreadLimit} (got ${JSON.stringify(raw)})`,
      { hint: 'nothing was sent' },
    );
  }
  return n;
}
