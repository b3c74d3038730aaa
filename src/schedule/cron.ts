import { shellWord, shellWords } from '../output/shell-word.js';
import { type PollCommand, pollCommandLine } from './shell.js';

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

/** A marker line read back: the config dir it names. */
const MARKER = /^# prediction-agent: poll for (\/.*) \(agent schedule --remove takes it out\)$/;

/**
 * Every config dir this program's entries in the crontab poll (`agent list`): each marker line whose next
 * line is that dir's entry, with the entry.
 */
export function scheduledDirs(crontab: string): Array<{ configDir: string; entry: string }> {
  const lines = linesOf(crontab);
  return lines.flatMap((line, i) => {
    const configDir = MARKER.exec(bare(line))?.[1];
    const entry = lines[i + 1];
    return configDir !== undefined && isEntryFor(entry, configDir) ? [{ configDir, entry: bare(entry ?? '') }] : [];
  });
}

/**
 * The crontab line: every `every` minutes, one poll with absolute paths (cron's PATH is /usr/bin:/bin and
 * it starts in the home directory), which writes its output to `log` itself (`poll --log`): with the
 * time on each line, in a file created mode 600, moved aside past its limit. No shell redirection: what
 * Node prints before the agent runs (node gone, the bundle missing) then reaches cron's mail, not an
 * untimed line in the log. The paths must be carriable (carriable.ts).
 */
export function cronLine(command: PollCommand, every: number, log: string): string {
  return `*/${every} * * * * ${pollCommandLine(command)} --log ${shellWord(log)}`;
}

/**
 * The interval and the log of an installed entry, as far as they can be read from it: what `--install`
 * keeps when it is not given them. This version's line and the earlier ones (`>> <log> 2>&1`, each "%"
 * escaped for cron) alike.
 */
export function entrySettings(entry: string): { every: number | undefined; log: string | undefined } {
  const every = Number(/^\*\/(\d+)\s/.exec(entry)?.[1]);
  const words = shellWords(entry.replace(/^(\S+\s+){5}/, '').replaceAll('\\%', '%'));
  const at = words.findIndex((word) => word === '--log' || word === '>>');
  const log = at === -1 ? undefined : words[at + 1];
  return {
    every: Number.isInteger(every) && every >= 1 && every <= 59 ? every : undefined,
    log: log?.startsWith('/') ? log : undefined,
  };
}

/** What `withoutEntry` took out: the marker and its entry, a marker whose entry was gone, or nothing. */
export type Removed = 'entry' | 'marker' | 'nothing';

/**
 * The crontab without this config dir's entry: its marker line and the entry below it, each with its line
 * end. Every other byte is kept; a table that still has lines ends with a newline, or cron ignores the last.
 */
export function withoutEntry(crontab: string, configDir: string): { text: string; removed: Removed } {
  const lines = linesOf(crontab);
  const marker = markerLine(configDir);
  const kept: string[] = [];
  let removed: Removed = 'nothing';
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i] ?? '';
    if (bare(line) !== marker) {
      kept.push(line);
      continue;
    }
    // The entry itself, unless someone deleted it and left the marker alone: then the next line is theirs.
    if (isEntryFor(lines[i + 1], configDir)) {
      i += 1;
      removed = 'entry';
    } else if (removed === 'nothing') removed = 'marker';
  }
  const text = kept.join('');
  return { text: removed === 'nothing' || text === '' || text.endsWith('\n') ? text : `${text}\n`, removed };
}

/** The crontab with exactly one entry for this config dir, at the end. */
export function withEntry(crontab: string, configDir: string, line: string): string {
  const { text } = withoutEntry(crontab, configDir);
  // cron ignores a last line without its newline: the user's last line gets one before ours follows.
  const head = text === '' || text.endsWith('\n') ? text : `${text}\n`;
  return `${head}${markerLine(configDir)}\n${line}\n`;
}

/** The entry installed for this config dir, if there is one (below its marker, and running this config dir). */
export function findEntry(crontab: string, configDir: string): string | undefined {
  const lines = linesOf(crontab);
  const at = lines.findIndex((line) => bare(line) === markerLine(configDir));
  const entry = lines[at + 1];
  return at !== -1 && isEntryFor(entry, configDir) ? bare(entry ?? '') : undefined;
}

/**
 * Each line with its end ("\n"; the last may have none), as `crontab -l` listed it. Debian's shows a
 * carriage return as a backslash and an "r": one at a line's end is an editor's CRLF, made the byte again
 * so that the line is written back as it was (a line that really ends in those two characters, rare, is
 * read as CRLF too).
 */
function linesOf(listing: string): string[] {
  return (listing.match(/[^\n]*\n|[^\n]+$/g) ?? []).map((line) => line.replace(/\\r(\n?)$/, '\r$1'));
}

// A line without its end: an editor may have saved the table with CRLF ends.
function bare(line: string): string {
  return line.replace(/\n$/, '').replace(/\r$/, '');
}

// A line this program wrote for the config dir; an earlier version escaped each "%" in it for cron.
function isEntryFor(line: string | undefined, configDir: string): boolean {
  const words = ` --config-dir ${shellWord(configDir)} poll`;
  return line !== undefined && (line.includes(words) || line.includes(words.replaceAll('%', '\\%')));
}
