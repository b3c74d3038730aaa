import { type PollCommand, pollCommandLine, shellWord } from './shell.js';

/** The log is moved aside to `<log>.1` once it passes this, so the two together stay under twice it. */
export const LOG_LIMIT_KIB = 1024;

/** Debian's cron refuses ("command too long") an entry whose command, after the five time fields, is longer. */
export const MAX_COMMAND_CHARS = 998;

/** The characters of the command in a crontab line: what cron's limit counts, escapes included. */
export function commandLength(line: string): number {
  return line.replace(/^(\S+\s+){5}/, '').length;
}

/** The comment line above the entry: what identifies it, per config dir, for --install and --remove. */
export function markerLine(configDir: string): string {
  return `# prediction-agent: poll for ${configDir.replaceAll('\n', ' ')} (agent schedule --remove takes it out)`;
}

/**
 * The crontab line: every `every` minutes, one poll with absolute paths (cron's PATH is /usr/bin:/bin and
 * it starts in the home directory), its output appended to `log`, which is moved aside when it outgrows
 * LOG_LIMIT_KIB. A "%" is a newline to cron, so each one is escaped.
 */
export function cronLine(command: PollCommand, every: number, log: string): string {
  const quotedLog = shellWord(log);
  const rotate = `if [ -n "$(find ${quotedLog} -size +${LOG_LIMIT_KIB}k 2>/dev/null)" ]; then mv -f ${quotedLog} ${shellWord(`${log}.1`)}; fi`;
  const line = `*/${every} * * * * ${pollCommandLine(command)} >> ${quotedLog} 2>&1; ${rotate}`;
  return line.replaceAll('%', '\\%');
}

/**
 * The crontab without this config dir's entry: its marker line and the line after it. Every other byte is
 * kept as it was, a missing final newline included.
 */
export function withoutEntry(crontab: string, configDir: string): { text: string; removed: boolean } {
  const lines = crontab.split('\n');
  const marker = markerLine(configDir);
  const kept: string[] = [];
  let removed = false;
  for (let i = 0; i < lines.length; i += 1) {
    if (lines[i] === marker) {
      removed = true;
      // The entry itself, unless someone deleted it and left the marker alone.
      if (lines[i + 1]?.includes(` --config-dir ${shellWord(configDir).replaceAll('%', '\\%')} `)) i += 1;
      continue;
    }
    kept.push(lines[i] ?? '');
  }
  return { text: kept.join('\n'), removed };
}

/** The crontab with exactly one entry for this config dir, at the end. */
export function withEntry(crontab: string, configDir: string, line: string): string {
  const { text } = withoutEntry(crontab, configDir);
  // cron ignores a last line without its newline: the user's last line gets one before ours follows.
  const head = text === '' || text.endsWith('\n') ? text : `${text}\n`;
  return `${head}${markerLine(configDir)}\n${line}\n`;
}

/** The entry installed for this config dir, if there is one. */
export function findEntry(crontab: string, configDir: string): string | undefined {
  const lines = crontab.split('\n');
  const at = lines.indexOf(markerLine(configDir));
  return at === -1 ? undefined : lines[at + 1];
}
