import fs from 'node:fs';
import path from 'node:path';
import type { RunProgram } from '../../context.js';
import { describeAgo } from '../../domain/duration.js';
import { type AgentPlace, agentCommand } from '../../output/command-hint.js';
import { lateAfterMs } from '../../history/health.js';
import { readHistory } from '../../history/log.js';
import type { HistoryEntry } from '../../history/entry.js';
import { entrySettings, findEntry } from '../../schedule/cron.js';
import { unitName } from '../../schedule/systemd.js';
import { fail, failedCheck, ok, type Verdict, warn } from './check.js';
import { cronDaemon } from './cron-daemon.js';

export interface ScheduleFound {
  verdict: Verdict;
  /** Minutes between the polls installed for this config dir, when the entry or timer says. */
  every?: number;
}

/**
 * What runs `agent poll` for this config dir, and whether it will: the crontab entry (its node and script
 * there, a cron daemon running), or this config dir's own systemd user timer (active), or a watcher.
 */
export async function findSchedule(
  configDir: string,
  run: RunProgram,
  {
    configHome,
    watching,
    proc,
    place,
  }: { configHome: string | undefined; watching: boolean; proc: string; place?: AgentPlace },
): Promise<ScheduleFound> {
  const listed = await run('crontab', ['-l']);
  const entry = listed.status === 0 ? findEntry(listed.stdout, configDir) : undefined;
  if (entry) {
    const [node, script] = (entry.replace(/^(\S+\s+){5}/, '').match(/'(?:[^']|'\\'')*'|\S+/g) ?? []).map(unquote);
    const missing = [node, script].filter((file): file is string => !file || !fs.existsSync(file));
    if (missing.length) {
      return {
        verdict: fail(
          `the crontab entry runs ${missing.join(' and ')}, which is not there any more`,
          `run "${agentCommand(place, 'schedule --install')}" again with the node and agent you use now`,
        ),
      };
    }
    const { every } = entrySettings(entry);
    const how = every ? ` every ${minutes(every)}` : '';
    const daemon = await cronDaemon(proc, run);
    if (daemon === 'stopped') {
      return {
        verdict: fail(
          `the crontab entry for this config dir is there, but no cron daemon runs: nothing runs it`,
          'start cron and have it start at boot (e.g. sudo systemctl enable --now cron, or sudo service cron start)',
        ),
        every,
      };
    }
    const unsure = daemon === 'unknown' ? ' (whether a cron daemon runs could not be seen from here)' : '';
    return { verdict: ok(`cron runs ${script} with ${node}${how} for this config dir${unsure}`), every };
  }
  const name = unitName(configDir);
  const timer = configHome ? path.join(configHome, 'systemd', 'user', `${name}.timer`) : undefined;
  if (timer && fs.existsSync(timer)) {
    const every = timerEvery(fs.readFileSync(timer, 'utf8'));
    const asked = await run('systemctl', ['--user', 'is-active', `${name}.timer`]);
    const state = asked.stdout.trim() || (asked.missing ? 'no systemctl here' : `exit ${asked.status}`);
    if (state !== 'active') {
      return {
        verdict: fail(
          `the systemd user timer ${name}.timer for this config dir is installed but not active (${state})`,
          `systemctl --user enable --now ${name}.timer`,
        ),
        every,
      };
    }
    const how = every ? ` every ${minutes(every)}` : '';
    return { verdict: ok(`the systemd user timer ${name}.timer polls this config dir${how}`), every };
  }
  if (watching) return { verdict: ok('no crontab entry or timer: the watcher polls this config dir') };
  const why = listed.missing
    ? 'there is no crontab program here'
    : 'no crontab entry or systemd timer for this config dir';
  // Without a crontab program, schedule --install would fail the same way: what makes it possible first.
  const fix = listed.missing
    ? `install cron (Debian, Ubuntu: sudo apt-get install cron) and run ${agentCommand(place, 'schedule --install')}, or ${agentCommand(place, 'schedule --install --systemd')}`
    : agentCommand(place, 'schedule --install');
  return { verdict: warn(`nothing runs agent poll on a schedule (${why})`, fix) };
}

/**
 * The last poll the history recorded: when, how it ended, and whether the next is overdue. With no agent
 * registered in the dir, a poll would only say so: its advice comes after registering.
 */
export function lastPollCheck(
  configDir: string,
  now: number,
  every: number | undefined,
  place?: AgentPlace,
  { registered = true }: { registered?: boolean } = {},
): Verdict {
  let last: HistoryEntry | undefined;
  try {
    [last] = readHistory(configDir, {
      limit: 1,
      keep: (r) => r.kind === 'run' && r.summary?.command === 'poll',
    }).records;
  } catch (error) {
    return failedCheck(error, 'the history cannot be read: ', 'warn');
  }
  if (!last?.summary)
    return warn(
      'no poll is recorded yet',
      `${registered ? '' : `after ${agentCommand(place, 'register')}: `}${agentCommand(place, 'poll')} (or ${agentCommand(place, 'schedule --install')})`,
    );
  const age = now - Date.parse(last.ts);
  const ago = describeAgo(age);
  const s = last.summary;
  const what = `${s.posted} posted, ${s.skipped} skipped, ${s.failed} failed, exit ${s.exitCode}`;
  if (s.exitCode !== 0) {
    return fail(
      `${ago}: ${what}${s.error ? `: ${s.error}` : ''}`,
      `${agentCommand(place, 'poll -v')} shows what goes wrong; ${agentCommand(place, 'history')} shows the runs`,
    );
  }
  if (age > lateAfterMs(every)) {
    const expected = every ? `polls every ${minutes(every)} are installed` : 'none since';
    return warn(
      `${ago}: ${what}; ${expected}`,
      `check the schedule (${agentCommand(place, 'schedule')}) and the log it writes`,
    );
  }
  return ok(`${ago}: ${what}`);
}

/** `OnCalendar=*:0/15` is every 15 minutes. */
function timerEvery(timer: string): number | undefined {
  const match = /^OnCalendar=\*:0\/(\d+)\s*$/m.exec(timer);
  return match ? Number(match[1]) || undefined : undefined;
}

function minutes(n: number): string {
  return n === 1 ? 'minute' : `${n} minutes`;
}

function unquote(word: string): string {
  return word.startsWith("'") ? word.slice(1, -1).replaceAll(`'\\''`, "'") : word;
}
