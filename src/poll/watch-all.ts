import fs from 'node:fs';
import path from 'node:path';
import { type FoundAgent, findAgents } from '../agents/find.js';
import type { Context, WatchLimits } from '../context.js';
import { AgentError, EXIT, type ExitCode, messageOf, NotRegisteredError } from '../errors.js';
import { placed } from '../output/command-hint.js';
import type { Output } from '../output/output.js';
import { oneLine, shownPath } from '../output/sanitize.js';
import { lockedCycle } from './locked-cycle.js';
import { removeAsideNote, writeAsideNote } from './watch-aside.js';
import { cycleContext, describe, endsTheWatch, watcherIn } from './watch.js';
import {
  otherWatcher,
  overdueNotice,
  removeWatchMarker,
  touchWatchMarker,
  type Watcher,
  writeWatchMarker,
} from './watch-marker.js';

/** One agent as the watcher keeps it between rounds. */
interface Polled {
  dir: string;
  output: Output;
  ctx: Context;
  /** Set aside after an error no wait fixes: its exit code, and its files as they were then. */
  aside?: { code: ExitCode; stamp: string };
  /** Another watcher was said to poll it (said once, not every round). */
  leftToOther?: number;
  marker?: Watcher;
}

/**
 * `agent poll --watch --all`: one resident process that polls every registered agent of this user (as
 * `agent list` finds them, again each round, so one registered later is taken up), one after the other,
 * each cycle with that agent's own context: its config dir, its lock, its state, its analyzer and settings.
 * Each agent's dir holds this process's marker, so cron polls for it stand aside and list and doctor see
 * the watcher. A temporary failure is said and that agent is tried again next round; an error no wait
 * fixes (a rejected key, a broken state or setting) sets that agent aside, its marker removed so that
 * cron polls for it do the work and report it, until its state or config file changes; the other agents
 * go on. When every agent is set aside the watch ends with their exit code (1 when they differ). A signal
 * ends it after the thread in hand, exit 0, every marker removed.
 */
export async function watchAll(
  ctx: Context,
  { limit, intervalMs, limits }: { limit: number; intervalMs: number; limits: WatchLimits },
): Promise<ExitCode> {
  const said = new Set<string>();
  const warnOnce = (message: string) => {
    if (!said.has(message)) ctx.output.warn(message);
    said.add(message);
  };
  const defaultDir = path.resolve((await ctx.defaultConfigDir?.()) ?? ctx.configDir);
  const registered = async () => (await findAgents(ctx, warnOnce)).filter((agent) => holdsState(agent.configDir));
  const first = await registered();
  if (!first.length) {
    throw new NotRegisteredError(`no registered agent found (in ${shownPath(defaultDir)}, its agents/, the crontab)`, {
      hint: 'run "agent --agent <name> register" for each agent first',
    });
  }
  const stop = new AbortController();
  void ctx.untilSignal?.().then(() => stop.abort());
  const stopping = () => stop.signal.aborted;
  const cycleCtx = cycleContext(ctx, stop.signal, limits);
  const how = ctx.output.stderrIsTTY ? 'Ctrl-C' : 'SIGTERM (systemctl stop) or SIGINT';
  ctx.output.say(
    `agent: polling ${first.length} agent${first.length === 1 ? '' : 's'} in turn every ${intervalMs / 1000} s (pid ${ctx.pid}): ${first.map((a) => labelOf(a, defaultDir)).join(', ')}; ${how} to stop`,
  );
  ctx.output.jsonLines();
  const polled = new Map<string, Polled>();
  const take = (agent: FoundAgent): Polled => {
    const dir = agent.configDir;
    const output = ctx.output.forAgent(labelOf(agent, defaultDir), dir);
    const agentCtx: Context = {
      ...cycleCtx,
      output,
      configDir: dir,
      configDirGiven: true,
      ...(agent.agentName === undefined ? {} : { agentName: agent.agentName }),
    };
    return { dir, output, ctx: agentCtx };
  };
  let found = first;
  try {
    while (!stopping()) {
      const later = polled.size > 0;
      const round = found.map((agent) => {
        const known = polled.get(agent.configDir) ?? take(agent);
        if (later && !polled.has(agent.configDir)) known.output.say(`agent: found ${agent.configDir}; polling it too`);
        polled.set(agent.configDir, known);
        return known;
      });
      for (const [dir, gone] of polled) {
        if (round.includes(gone)) continue;
        removeWatchMarker(dir, ctx.pid);
        removeAsideNote(dir, ctx.pid);
        polled.delete(dir);
      }
      if (!round.length)
        throw new NotRegisteredError('no registered agent is left to poll (each was removed)', {
          hint: 'agent list shows the agents there are',
        });
      // A cycle begins within the interval plus every agent's longest cycle after the one before.
      const overdueAfterMs = intervalMs + round.length * limits.cycleMs;
      for (const agent of round) {
        if (stopping()) break;
        await turn(agent, { overdueAfterMs, intervalMs }, stopping, limit);
      }
      if (stopping()) break;
      const asideCodes = round.flatMap((agent) => (agent.aside ? [agent.aside.code] : []));
      if (asideCodes.length === round.length) {
        ctx.output.error('agent: every agent is set aside; the watch ends');
        return asideCodes.every((code) => code === asideCodes[0])
          ? (asideCodes[0] ?? EXIT.unexpected)
          : EXIT.unexpected;
      }
      await ctx.timing.sleep(intervalMs, stop.signal);
      if (!stopping()) found = await registered();
    }
  } finally {
    for (const dir of polled.keys()) {
      removeWatchMarker(dir, ctx.pid);
      removeAsideNote(dir, ctx.pid);
    }
  }
  return EXIT.ok;
}

/** One agent's cycle: skipped while set aside or while another watcher polls it. */
async function turn(
  agent: Polled,
  { overdueAfterMs, intervalMs }: { overdueAfterMs: number; intervalMs: number },
  stopping: () => boolean,
  limit: number,
): Promise<void> {
  const { ctx, dir, output } = agent;
  if (agent.aside) {
    if (filesStamp(dir) === agent.aside.stamp) return;
    agent.aside = undefined;
    removeAsideNote(dir, ctx.pid);
    output.say(`agent: ${dir} changed; polling it again`);
  }
  const now = ctx.timing.now();
  const seen = otherWatcher(dir, { isAlive: ctx.self?.isAlive ?? (() => false), self: ctx.pid, now });
  if (seen && !seen.overdue) {
    if (agent.leftToOther !== seen.watcher.pid)
      output.warn(`agent: another watcher (pid ${seen.watcher.pid}) polls ${dir}; left to it`);
    agent.leftToOther = seen.watcher.pid;
    agent.marker = undefined;
    return;
  }
  if (seen) output.warn(overdueNotice(seen, 'this watcher takes over'));
  agent.leftToOther = undefined;
  try {
    // Written whole when first polled, taken over or the round grew: a touch alone would keep the marker
    // of the watcher found there (stopped, or dead) fresh, and its own window, in this process's stead.
    if (agent.marker?.overdueAfterMs !== overdueAfterMs) {
      agent.marker = watcherIn(dir, ctx, overdueAfterMs, intervalMs);
      writeWatchMarker(dir, agent.marker, now);
    } else touchWatchMarker(dir, agent.marker, now);
    await lockedCycle(ctx, { limit, dryRun: false, started: now, shouldStop: stopping });
  } catch (error) {
    if (stopping()) return;
    if (endsTheWatch(error)) {
      removeWatchMarker(dir, ctx.pid);
      agent.marker = undefined;
      agent.aside = { code: exitCodeOf(error), stamp: filesStamp(dir) };
      const reason = placed(describe(error), ctx);
      // For list and doctor, which would otherwise see no watcher and nothing wrong once the fix is in.
      writeAsideNote(dir, watcherIn(dir, ctx, overdueAfterMs, intervalMs), {
        since: new Date(ctx.timing.now()).toISOString(),
        code: agent.aside.code,
        reason: output.redact(reason),
      });
      output.error(
        `agent: ${reason}; ${dir} is set aside (its marker removed, so that cron polls for it do the work) until its state or config changes; the other agents go on`,
      );
    } else output.error(`agent: this cycle failed: ${placed(describe(error), ctx)}; the next one tries again`);
    if (ctx.output.json)
      ctx.output.jsonDocument({
        error: {
          code: endsTheWatch(error) ? exitCodeOf(error) : EXIT.temporary,
          message: oneLine(messageOf(error), 500),
        },
      });
  }
}

/** What `--agent` calls it, "default" for the default dir, else its path. */
function labelOf(agent: FoundAgent, defaultDir: string): string {
  if (agent.agentName !== undefined) return agent.agentName;
  return agent.configDir === defaultDir ? 'default' : shownPath(agent.configDir);
}

function holdsState(dir: string): boolean {
  try {
    fs.lstatSync(path.join(dir, 'state.json'));
    return true;
  } catch {
    return false;
  }
}

/**
 * The config dir, its state and config files as they are now: a change (register --force, config set, the
 * chmod or chown an error named) may have fixed what set the agent aside. The change time moves with a
 * chmod or chown, which leaves the modification time alone. Of the dir only its mode and owner count:
 * every run's lock file moves its times.
 */
function filesStamp(dir: string): string {
  const stamp = (file: string, { whole }: { whole: boolean }) => {
    try {
      const { ino, size, mtimeMs, ctimeMs, mode, uid } = fs.statSync(file);
      return whole ? `${ino}:${size}:${mtimeMs}:${ctimeMs}:${mode}:${uid}` : `${mode}:${uid}`;
    } catch {
      return '-';
    }
  };
  return [
    stamp(dir, { whole: false }),
    stamp(path.join(dir, 'state.json'), { whole: true }),
    stamp(path.join(dir, 'config.json'), { whole: true }),
  ].join(' ');
}

function exitCodeOf(error: unknown): ExitCode {
  return error instanceof AgentError ? error.exitCode : EXIT.unexpected;
}
