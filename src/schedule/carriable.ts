import { SetupError, UsageError } from '../errors.js';
import type { PollCommand } from './shell.js';

/**
 * What in a path a crontab line cannot carry, said for a message; undefined when nothing. A newline or
 * carriage return ends the entry (cron runs what follows as a job of its own); cron reads "%" as a newline
 * and crons differ on its escape (Debian's cuts the command at "\%"); other control characters have no
 * place in a crontab. Quoting makes everything else one word for the shell. A systemd unit takes a "%"
 * (its own quoting escapes it), and nothing else here.
 */
export function uncarriable(text: string, into: 'cron' | 'systemd' = 'cron'): string | undefined {
  if (text.includes('\n')) return 'a newline';
  if (text.includes('\r')) return 'a carriage return';
  if (into === 'cron' && text.includes('%')) return 'a "%"';
  if (/[\u0000-\u001f\u007f]/.test(text)) return 'a control character';
  return undefined;
}

/**
 * Refuses, before a crontab or a unit is written, a path the entry would not carry as it is: the config dir
 * and the log are the user's to choose (exit 2), node and the script where they were installed (exit 1).
 */
export function refuseUncarriable(
  { command, log }: { command?: PollCommand; log?: string },
  into: 'cron' | 'systemd',
): void {
  const paths: Array<[what: string, path: string | undefined, Refusal: typeof UsageError | typeof SetupError]> = [
    ['the config dir', command?.configDir, UsageError],
    ['the log', log, UsageError],
    ['the node binary', command?.node, SetupError],
    ["the agent's script", command?.script, SetupError],
  ];
  for (const [what, file, Refusal] of paths) {
    const problem = file === undefined ? undefined : uncarriable(file, into);
    if (!problem) continue;
    const where = into === 'cron' ? 'a crontab line' : 'a systemd unit';
    const avoid =
      into === 'cron' ? 'newlines, carriage returns, other control characters or "%"' : 'control characters';
    throw new Refusal(
      `${what} ${JSON.stringify(file)} holds ${problem}, which ${where} cannot carry: nothing was changed`,
      {
        hint: `use paths without ${avoid}`,
      },
    );
  }
}
