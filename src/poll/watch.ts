import { alertAfterPoll } from '../alert/after-run.js';
import type { Context, WatchLimits } from '../context.js';
import { exitCodeOf } from '../history/record-run.js';
import { stateStore } from '../session.js';
import { AgentError, BusyError, EXIT, type ExitCode, messageOf, NotRegisteredError } from '../errors.js';
import { agentCommand } from '../output/command-hint.js';
import { oneLine } from '../output/sanitize.js';
import { lockedCycle } from './locked-cycle.js';
import { identify } from './process-identity.js';
import {
  dirIdentity,
  otherWatcher,
  overdueNotice,
  removeWatchMarker,
  touchWatchMarker,
  type Watcher,
  writeWatchMarker,
} from './watch-marker.js';

/**
 * `agent poll --watch`: a poll cycle every `intervalMs`, in one resident process, until SIGINT or SIGTERM
 * (docs/cli.md). Each cycle takes the run lock for itself only, so a predict by hand works between
 * cycles; the marker it keeps makes a cron poll on the same config dir leave the work to it. A signal
 * ends it after the thread in hand, exit 0. A temporary failure (network, 5xx, a rate limit) is said and
 * the next cycle tries again; any other ends the watch (endsTheWatch).
 */
export async function watch(
  ctx: Context,
  { limit, intervalMs, limits }: { limit: number; intervalMs: number; limits: WatchLimits },
): Promise<ExitCode> {
  const dir = stateStore(ctx).dir;
  const isAlive = ctx.self?.isAlive ?? (() => false);
  const seen = otherWatcher(dir, { isAlive, self: ctx.pid, now: ctx.timing.now() });
  if (seen && !seen.overdue) {
    const { pid, startedAt } = seen.watcher;
    throw new BusyError(`another watcher (pid ${pid}, since ${startedAt}) already polls ${dir}`, {
      hint: 'one is enough; stop it first to start another',
    });
  }
  // Two watchers at once are safe (each cycle takes the run lock); one that polls nothing is not.
  if (seen) ctx.output.warn(overdueNotice(seen, 'this watcher takes over'));
  try {
    if (stateStore(ctx).read() === undefined) {
      throw new NotRegisteredError(`no agent is registered in ${ctx.configDir}`, {
        hint: `run "${agentCommand(ctx, 'register')}" first`,
      });
    }
  } catch (error) {
    // No cycle will run to tell it: told now, as a cycle's state problem is (docs/alerts.md).
    await alertAfterPoll(ctx, { lock: undefined, exitCode: exitCodeOf(error), error });
    throw error;
  }
  // Aborted by the first SIGINT or SIGTERM: the sleep between cycles ends at once, a cycle after the thread in hand.
  const stop = new AbortController();
  void ctx.untilSignal?.().then(() => stop.abort());
  const stopping = () => stop.signal.aborted;
  // The thread in hand finishes: its analyzer is stopped only if it still works stopGraceMs after the
  // signal (the thread then stays due, nothing posted), the cycle stops after it; a wait for the service
  // (a 429's pause, a retry) ends at once, sending nothing (stopSignal). And
  // no batch tuning: it trades speed for memory in a run that exits soon, while a resident process would
  // pay for it every cycle (turning off V8's optimiser made each idle cycle ~12x dearer in the bench).
  const cycleCtx = cycleContext(ctx, stop.signal, limits);
  const me = watcherIn(dir, ctx, intervalMs + limits.cycleMs, intervalMs);
  writeWatchMarker(dir, me, ctx.timing.now());
  // Said once, at a terminal or into a log (systemd's journal), so that whoever reads it knows what runs.
  const how = ctx.output.stderrIsTTY ? 'Ctrl-C' : 'SIGTERM (systemctl stop) or SIGINT';
  ctx.output.say(`agent: polling ${dir} every ${intervalMs / 1000} s (pid ${ctx.pid}); ${how} to stop`);
  // One JSON line per cycle: its report, or the error it met (docs/cli.md).
  ctx.output.jsonLines();
  try {
    while (!stopping()) {
      touchWatchMarker(dir, me, ctx.timing.now());
      try {
        await lockedCycle(cycleCtx, { limit, dryRun: false, started: ctx.timing.now(), shouldStop: stopping });
      } catch (error) {
        if (stopping()) break;
        if (endsTheWatch(error)) throw error;
        ctx.output.error(`agent: this cycle failed: ${describe(error)}; the next one tries again`);
        if (ctx.output.json)
          ctx.output.jsonDocument({ error: { code: EXIT.temporary, message: oneLine(messageOf(error), 500) } });
      }
      if (stopping()) break;
      await ctx.timing.sleep(intervalMs, stop.signal);
    }
  } finally {
    removeWatchMarker(dir, ctx.pid);
  }
  return EXIT.ok;
}

/** What a watcher's cycles run with: stopped by `stop`, and never tuned for a short batch (above). */
export function cycleContext(ctx: Context, stop: AbortSignal, limits: WatchLimits): Context {
  return {
    ...ctx,
    onInterrupt: (close) => afterGrace(stop, limits.stopGraceMs, close, ctx.onInterrupt),
    tuneForBatch: undefined,
    stopSignal: stop,
  };
}

/**
 * The marker this process leaves in `dir`: its next cycle there begins about `intervalMs` after the latest
 * one began, and surely within `overdueAfterMs`.
 */
export function watcherIn(dir: string, ctx: Context, overdueAfterMs: number, intervalMs: number): Watcher {
  const startTime = identify(ctx.pid)?.start;
  const dirId = dirIdentity(dir);
  return {
    pid: ctx.pid,
    startedAt: new Date(ctx.timing.now()).toISOString(),
    overdueAfterMs,
    intervalMs,
    ...(startTime === undefined ? {} : { startTime }),
    ...(dirId === undefined ? {} : { dirId }),
  };
}

/**
 * An external analyzer (a command, a model) still at work `graceMs` after the stop signal is stopped, so
 * that a service manager's stop (systemd: SIGKILL after 90 s) ends the watcher in time. From the stop on, a
 * second signal goes to `onSecond` (the process's own `onInterrupt`): it stops the analyzer, then ends the
 * process as that signal does. Before the stop it must not: the first signal lets the thread in hand finish.
 * Returns the undo.
 */
function afterGrace(
  signal: AbortSignal,
  graceMs: number,
  close: () => Promise<void>,
  onSecond: Context['onInterrupt'],
): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let undoSecond: (() => void) | undefined;
  const start = () => {
    timer = setTimeout(() => void close(), graceMs);
    undoSecond = onSecond?.(close);
  };
  if (signal.aborted) start();
  else signal.addEventListener('abort', start, { once: true });
  return () => {
    signal.removeEventListener('abort', start);
    clearTimeout(timer);
    undoSecond?.();
  };
}

/**
 * Only a temporary failure (exit 5: the network, the service's 5xx, a rate limit, a busy lock) can pass by
 * itself. Anything else (a rejected key, another AGENT_BASE_URL, a refused setting, a broken state, a bug)
 * would fail every cycle for good while cron polls stand aside for the watcher: it ends the watch.
 */
export function endsTheWatch(error: unknown): boolean {
  return !(error instanceof AgentError) || error.exitCode !== EXIT.temporary;
}

export function describe(error: unknown): string {
  const text = error instanceof AgentError && error.hint ? `${error.message} (${error.hint})` : messageOf(error);
  return oneLine(text, 300);
}
