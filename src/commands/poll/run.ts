import path from 'node:path';
import type { Context } from '../../context.js';
import { stateStore } from '../../session.js';
import { userPath } from '../../domain/home-path.js';
import { LIMITS } from '../../domain/profile.js';
import { EXIT, StateError, UsageError, type ExitCode } from '../../errors.js';
import { lockedCycle } from '../../poll/locked-cycle.js';
import { otherWatcher, overdueNotice } from '../../poll/watch-marker.js';
import { MAX_INTERVAL_S, WATCH_LIMITS } from '../../poll/watch-limits.js';

export interface PollOptions {
  /** Where the run's output goes, each line after its time (what the crontab line names). */
  log?: string;
  limit?: string;
  dryRun?: boolean;
  watch?: boolean;
  /** With --watch: every registered agent of this user, in turn, in this one process. */
  all?: boolean;
  interval?: string;
}

/** `agent poll`: one polling cycle under the run lock (docs/cli.md `poll`). */
export async function runPoll(ctx: Context, options: PollOptions): Promise<ExitCode> {
  if (options.log !== undefined) await logTo(userPath(options.log, ctx.env.HOME), ctx);
  const limit = parseLimit(options.limit);
  const dryRun = options.dryRun === true;
  if (options.all) refuseAll(options, ctx);
  if (options.watch) {
    if (dryRun) throw new UsageError('--watch and --dry-run cannot go together', { hint: 'a dry run is one cycle' });
    const limits = ctx.watchLimits ?? WATCH_LIMITS;
    const settings = { limit, intervalMs: parseInterval(options.interval, limits.minIntervalS), limits };
    if (options.all) {
      const { watchAll } = await import('../../poll/watch-all.js');
      return watchAll(ctx, settings);
    }
    const { watch } = await import('../../poll/watch.js');
    return watch(ctx, settings);
  }
  if (options.interval !== undefined) throw new UsageError('--interval goes with --watch');
  // A watcher polls this config dir: the work is its, and a cron run beside it has nothing to do. Unless it
  // has stopped polling while its process lives: then cron does the work, and says so in every run's mail.
  const seen = dryRun
    ? undefined
    : otherWatcher(stateStore(ctx).dir, {
        isAlive: ctx.self?.isAlive ?? (() => false),
        self: ctx.pid,
        now: ctx.timing.now(),
      });
  if (seen && !seen.overdue) {
    ctx.output.detail(`agent poll: a watcher (pid ${seen.watcher.pid}) polls this config dir; nothing to do`);
    return EXIT.ok;
  }
  if (seen) ctx.output.warn(overdueNotice(seen, 'this poll does the work'));
  return lockedCycle(ctx, { limit, dryRun, started: ctx.timing.now() });
}

/**
 * `--all` is one resident process for every agent: a single poll of all of them is what cron's lines (one
 * per agent) do; and a chosen config dir would name one agent where --all names every one.
 */
function refuseAll(options: PollOptions, ctx: Context): void {
  if (!options.watch)
    throw new UsageError('--all goes with --watch', {
      hint: 'agent poll --watch --all polls every agent in one process; from cron, each agent has its own line',
    });
  if (ctx.configDirGiven) {
    const given = ctx.agentName === undefined ? '--config-dir (or AGENT_CONFIG_DIR)' : '--agent';
    throw new UsageError(`--all polls every agent: it cannot go with ${given}, which names one`, {
      hint: 'drop one of them (agent list shows the agents --all polls)',
    });
  }
}

/**
 * Sends the run's output to the log. One that cannot be written (a symbolic link, a directory) does not
 * stop the poll: it says why on stderr, which cron mails, and the output follows it there.
 */
async function logTo(file: string, ctx: Context): Promise<void> {
  const { openLog } = await import('../../output/log-file.js');
  try {
    ctx.output.sendTo((stderr) => openLog(path.resolve(file), { now: ctx.timing.now, fallback: stderr }));
  } catch (error) {
    if (!(error instanceof StateError)) throw error;
    ctx.output.error(`agent: ${error.message}; this run's output goes here instead`);
  }
}

function parseInterval(raw: string | undefined, min: number): number {
  if (raw === undefined) return 300_000;
  const n = Number(raw);
  if (!/^\d+(\.\d+)?$/.test(raw.trim()) || n < min || n > MAX_INTERVAL_S) {
    throw new UsageError(
      `--interval must be a number of seconds from ${min} to ${MAX_INTERVAL_S} (got ${JSON.stringify(raw)})`,
    );
  }
  return Math.round(n * 1000);
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
