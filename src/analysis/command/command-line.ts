import { UsageError } from '../../errors.js';

// `analyzer.command` is split into argv here and run without a shell, so nothing in the stored setting
// (or in a thread) can ever be interpreted by one: quoting follows POSIX sh so a user can copy a line
// from their terminal, but $VAR, globs, ~, pipes and redirections are ordinary characters.
// https://pubs.opengroup.org/onlinepubs/9699919799/utilities/V3_chap02.html#tag_18_02

const HINTS: Record<CommandSetting, string> = {
  'analyzer.command': 'set it with: agent config set analyzer.command "/usr/bin/node /path/to/analyzer.mjs"',
  'alert.command': 'set it with: agent config set alert.command "/usr/bin/node /path/to/alert.mjs"',
};

/** The settings that hold a command line: each is split, checked and run by the rules here. */
export type CommandSetting = 'analyzer.command' | 'alert.command';
// Inside double quotes a backslash escapes only these; before any other character it is kept (POSIX).
const ESCAPED_IN_DOUBLE = new Set(['"', '\\', '$', '`']);
const BLANK = /[ \t\n\r\v\f]/;

/**
 * Splits a command line into argv without a shell: whitespace separates, quotes and backslashes group.
 * The result always has a non-empty program name first.
 */
export function parseCommandLine(line: string, setting: CommandSetting = 'analyzer.command'): [string, ...string[]] {
  const usage = (message: string) => new UsageError(`${setting}: ${message}`, { hint: HINTS[setting] });
  if (line.includes('\0')) throw usage('the command contains a NUL character');
  const argv: string[] = [];
  let word = '';
  // A word exists once any of its characters (or an empty pair of quotes) has been read.
  let inWord = false;
  let i = 0;
  while (i < line.length) {
    const c = line[i] as string;
    if (BLANK.test(c)) {
      if (inWord) argv.push(word);
      word = '';
      inWord = false;
      i += 1;
    } else if (c === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) throw usage(unterminated('single', i));
      word += line.slice(i + 1, end);
      inWord = true;
      i = end + 1;
    } else if (c === '"') {
      const { text, next } = doubleQuoted(line, i, usage);
      word += text;
      inWord = true;
      i = next;
    } else if (c === '\\') {
      const escaped = line[i + 1];
      if (escaped === undefined) throw usage('the command ends with a lone backslash');
      // A backslash before a line break joins the lines, as in sh.
      if (escaped !== '\n') {
        word += escaped;
        inWord = true;
      }
      i += 2;
    } else {
      word += c;
      inWord = true;
      i += 1;
    }
  }
  if (inWord) argv.push(word);
  const [program, ...args] = argv;
  if (program === undefined) throw usage('the command is empty');
  if (program === '') throw usage('the command starts with an empty program name');
  return [program, ...args];
}

function doubleQuoted(
  line: string,
  open: number,
  usage: (message: string) => UsageError,
): { text: string; next: number } {
  let text = '';
  let i = open + 1;
  while (i < line.length) {
    const c = line[i] as string;
    if (c === '"') return { text, next: i + 1 };
    const escaped = line[i + 1];
    if (c === '\\' && escaped !== undefined && ESCAPED_IN_DOUBLE.has(escaped)) {
      text += escaped;
      i += 2;
    } else {
      text += c;
      i += 1;
    }
  }
  throw usage(unterminated('double', open));
}

function unterminated(kind: 'single' | 'double', at: number): string {
  const quote = kind === 'single' ? "'" : '"';
  return `the command has an unterminated ${kind} quote (${quote}) at character ${at + 1}`;
}
