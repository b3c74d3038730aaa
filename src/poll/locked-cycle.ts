import type { Context } from '../context.js';
import { stateStore, takeLock } from '../session.js';
import { BusyError, CancelledError, EXIT, type ExitCode, LockLostError } from '../errors.js';
import { alertAfterPoll } from '../alert/after-run.js';
import { exitCodeOf, isStateProblem, recordedMessage, recordRun } from '../history/record-run.js';
import { RunRecorder } from '../history/recorder.js';
import { priceRecorder, settleAfterRun } from '../record/run-hooks.js';
import type { Lock } from '../state/lock.js';
import { pollCycle } from './cycle.js';
import { emptyReport, renderPoll } from './report.js';

/**
 * One cycle under the run lock (none for a dry run), recorded in the history. `shouldStop`: a watcher's
 * signal, which ends the cycle after the thread in hand.
 */
export async function lockedCycle(
  ctx: Context,
  {
    limit,
    dryRun,
    started,
    shouldStop,
  }: { limit: number; dryRun: boolean; started: number; shouldStop?: () => boolean },
): Promise<ExitCode> {
  // A dry run changes nothing, so it takes no lock and is never turned away by one.
  let lock: Lock | undefined;
  try {
    lock = dryRun ? undefined : takeLock(ctx);
  } catch (error) {
    if (!(error instanceof BusyError)) {
      // A lock that cannot be taken (a directory in its place) fails every run, out of the history: told
      // at once, as a broken state. Without the lock, at worst two runs that overlap both send it.
      if (!dryRun) await alertAfterPoll(ctx, { lock: undefined, exitCode: exitCodeOf(error), error });
      throw error;
    }
    // Overlapping cron runs are normal (one-writer): the running one does the work; this one is quietly
    // done. So is a watcher's cycle that meets a predict by hand: the next cycle is the watcher's.
    renderPoll(emptyReport(stateStore(ctx).read()?.cursor ?? null), ctx.output, {
      dryRun,
      elapsedMs: 0,
      note: error.message,
    });
    return EXIT.ok;
  }
  // A dry run records nothing, as it changes nothing.
  const recorder = dryRun ? undefined : new RunRecorder('poll', ctx.timing.now);
  const prices = dryRun ? undefined : priceRecorder(ctx);
  try {
    const code = await pollCycle({ limit, dryRun, started, recorder, prices, shouldStop, lock }, ctx);
    await settleAfterRun(ctx, prices);
    if (recorder) recordRun(ctx, recorder.finish(started, code));
    if (recorder) await alertAfterPoll(ctx, { lock, exitCode: code });
    return code;
  } catch (error) {
    // A watcher asked to stop ends its cycle with a CancelledError after the thread in hand: a clean
    // stop (exit 0), not a failed poll for doctor and stats.
    const stopped = error instanceof CancelledError && shouldStop?.() === true;
    // A run whose lock was taken over (it slept past the stale time) keeps what it did (a post may have
    // landed before the lock was found lost) but leaves the run's summary, and any alert, to the run that
    // took over and did the work: its own would read as a failed poll to doctor, list and alerts.
    if (error instanceof LockLostError) {
      if (recorder) recordRun(ctx, recorder.take());
      throw error;
    }
    if (recorder && stopped) recordRun(ctx, recorder.finish(started, EXIT.ok));
    else if (recorder && !isStateProblem(error))
      recordRun(ctx, recorder.finish(started, exitCodeOf(error), recordedMessage(error)));
    if (recorder)
      await alertAfterPoll(ctx, stopped ? { lock, exitCode: EXIT.ok } : { lock, exitCode: exitCodeOf(error), error });
    throw error;
  } finally {
    lock?.release();
  }
}
