import { readMemory } from '../../alert/memory.js';
import { checkAsCronRunsIt } from '../../analysis/command/check.js';
import type { AgentPlace } from '../../output/command-hint.js';
import { agentCommand } from '../../output/command-hint.js';
import { EXIT } from '../../errors.js';
import { readHistory } from '../../history/log.js';
import type { HistoryEntry } from '../../history/entry.js';
import { oneLine } from '../../output/sanitize.js';
import { parseAlertUrl, shownUrl } from '../../settings/alert-url.js';
import type { Settings } from '../../settings/table.js';
import { failedCheck, ok, type Verdict, warn } from './check.js';

/**
 * The alert routes (docs/alerts.md): which are set, whether each can work as cron runs it, and the last
 * alert the history recorded with what each route answered. Sends nothing: `agent alert test` does.
 * The URLs are secrets, shown as scheme and host only. Nothing to say without settings: the analyzer check
 * says why they cannot be read.
 */
export function alertCheck(
  settings: Settings | undefined,
  configDir: string,
  home: string,
  place: AgentPlace,
): Verdict | undefined {
  if (!settings) return undefined;
  const command = settings['alert.command'];
  const webhook = settings['alert.webhook'];
  const heartbeat = settings['alert.heartbeat'];
  const routes = [
    ...(command ? [`command ${oneLine(command, 80)}`] : []),
    ...(webhook ? [`webhook ${shownUrl(webhook)}`] : []),
    ...(heartbeat ? [`heartbeat ${shownUrl(heartbeat)}`] : []),
  ];
  if (!routes.length)
    return ok('none set: trouble shows only in the log and here (agent help alerts says how to be told)');
  const set = routes.join(', ');
  try {
    if (command) checkAsCronRunsIt(command, home, 'alert.command');
    if (webhook) parseAlertUrl(webhook, 'alert.webhook');
    if (heartbeat) parseAlertUrl(heartbeat, 'alert.heartbeat');
    // A poll that cannot read it sends no alert at all (and says so only in its log).
    if (command || webhook) readMemory(configDir);
  } catch (error) {
    return failedCheck(error, `${set}: `);
  }
  let last: HistoryEntry | undefined;
  try {
    // Only failed pings are recorded: a good poll after one means the heartbeat answered again.
    const [good] = readHistory(configDir, { limit: 1, keep: isGoodPoll }).records;
    const answeredSince = good ? Date.parse(good.ts) : Number.NEGATIVE_INFINITY;
    const current = (record: HistoryEntry) =>
      record.kind === 'alert' && !(record.alert?.event === 'heartbeat' && Date.parse(record.ts) < answeredSince);
    [last] = readHistory(configDir, { limit: 1, keep: current }).records;
  } catch {
    // The last-poll check says what is wrong with the history.
  }
  if (!last?.alert) return ok(`${set}; none sent yet`);
  const answers = last.alert.routes.map(({ route, answer }) => `${route} ${oneLine(answer, 80)}`).join(', ');
  const what = last.alert.event === 'heartbeat' ? 'the last heartbeat' : `the last alert (${last.alert.event})`;
  const line = `${set}; ${what} at ${last.ts}: ${answers}`;
  if (last.alert.routes.some((route) => !route.ok))
    return warn(line, `${agentCommand(place, 'alert test')} shows what each route answers now`);
  return ok(line);
}

function isGoodPoll(record: HistoryEntry): boolean {
  return record.kind === 'run' && record.summary?.command === 'poll' && record.summary.exitCode === EXIT.ok;
}
