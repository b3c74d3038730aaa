import { createHash } from 'node:crypto';
import path from 'node:path';
import type { PollCommand } from './shell.js';

/** The prefix of every unit `systemdUnits` writes: how `agent list` finds them among the user's units. */
export const UNIT_PREFIX = 'prediction-agent-poll-';

/** Where a user's own units live (systemd's search path for them); undefined without XDG_CONFIG_HOME or HOME. */
export function userUnitDir(env: Record<string, string | undefined>): string | undefined {
  const configHome = env.XDG_CONFIG_HOME || (env.HOME ? path.join(env.HOME, '.config') : undefined);
  return configHome ? path.join(configHome, 'systemd', 'user') : undefined;
}

/** One pair of units per config dir, so two agents on one account each have their own. */
export function unitName(configDir: string): string {
  return `${UNIT_PREFIX}${createHash('sha256').update(configDir).digest('hex').slice(0, 10)}`;
}

// systemd's own quoting: double quotes, with backslash escapes; "%" starts a specifier.
function systemdWord(text: string): string {
  return `"${text.replaceAll('\\', '\\\\').replaceAll('"', '\\"').replaceAll('%', '%%')}"`;
}

/**
 * A oneshot service that runs one poll, and a timer that starts it every `every` minutes (and at once
 * after a boot or a suspend that missed a run). Output goes to the user's journal, which journald keeps
 * bounded: `journalctl --user -u <name>` shows it.
 */
export function systemdUnits(command: PollCommand, every: number): { service: string; timer: string } {
  const exec = [command.node, command.script, '--config-dir', command.configDir, 'poll'].map(systemdWord).join(' ');
  const service = `[Unit]
Description=prediction-agent poll for ${command.configDir.replaceAll('%', '%%').replaceAll('\n', ' ')}

[Service]
Type=oneshot
ExecStart=${exec}
`;
  const timer = `[Unit]
Description=prediction-agent poll every ${every} minutes

[Timer]
OnCalendar=*:0/${every}
Persistent=true

[Install]
WantedBy=timers.target
`;
  return { service, timer };
}

/** The config dir a service `systemdUnits` wrote polls (its ExecStart's `--config-dir`), undefined when it is not one. */
export function unitConfigDir(service: string): string | undefined {
  const exec = /^ExecStart=(.*)$/m.exec(service)?.[1];
  if (exec === undefined) return undefined;
  const words = quotedWords(exec).map((word) => word.replaceAll('%%', '%'));
  const at = words.indexOf('--config-dir');
  const dir = at === -1 ? undefined : words[at + 1];
  return words[at + 2] === 'poll' && dir?.startsWith('/') ? dir : undefined;
}

/** The minutes between polls of a timer `systemdUnits` wrote; undefined when it is not one. */
export function timerInterval(timer: string): number | undefined {
  const every = Number(/^OnCalendar=\*:0\/(\d+)$/m.exec(timer)?.[1]);
  return Number.isInteger(every) && every >= 1 && every <= 59 ? every : undefined;
}

/** The double-quoted words of a line, backslash escapes undone; an unclosed quote ends the list. */
function quotedWords(line: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  for (let at = 0; at < line.length; at += 1) {
    const char = line.charAt(at);
    if (word === undefined) {
      if (char === '"') word = '';
    } else if (char === '\\' && at + 1 < line.length) {
      at += 1;
      word += line.charAt(at);
    } else if (char === '"') {
      words.push(word);
      word = undefined;
    } else word += char;
  }
  return words;
}
