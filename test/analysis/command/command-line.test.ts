import { describe, expect, it } from 'vitest';
import { parseCommandLine } from '../../../src/analysis/command/command-line.js';
import { UsageError } from '../../../src/errors.js';

describe('parseCommandLine', () => {
  it.each<[string, string, string[]]>([
    ['one word', 'analyzer', ['analyzer']],
    ['words split on blanks', 'node  /opt/a.mjs\t--fast', ['node', '/opt/a.mjs', '--fast']],
    ['leading and trailing blanks', '  node a.mjs \n', ['node', 'a.mjs']],
    ['newlines separate too', 'node\na.mjs', ['node', 'a.mjs']],
    ['single quotes keep blanks', "node '/my scripts/a.mjs'", ['node', '/my scripts/a.mjs']],
    ['a backslash cannot escape a single quote inside single quotes', "x 'a\\'", ['x', 'a\\']],
    ['single quotes keep backslashes and double quotes', `echo 'a\\b "c"'`, ['echo', 'a\\b "c"']],
    ['double quotes keep blanks', 'node "/my scripts/a.mjs"', ['node', '/my scripts/a.mjs']],
    ['double quotes: \\" \\\\ \\$ \\` are escapes', 'x "a\\"b\\\\c\\$d\\`e"', ['x', 'a"b\\c$d`e']],
    ['double quotes: other backslashes stay', 'x "a\\nb\\\'c"', ['x', "a\\nb\\'c"]],
    ['double quotes keep single quotes', `x "it's"`, ['x', "it's"]],
    ['a backslash escapes a blank', 'node my\\ script.mjs', ['node', 'my script.mjs']],
    ['a backslash escapes a quote', `x \\'a\\"`, ['x', `'a"`]],
    ['a backslash escapes a backslash', 'x a\\\\b', ['x', 'a\\b']],
    ['backslash-newline joins lines', 'node a\\\n.mjs', ['node', 'a.mjs']],
    ['quotes join with what touches them', `x pre'mid dle'"post"fix`, ['x', 'premid dlepostfix']],
    ['empty quotes make an empty argument', `x '' ""`, ['x', '', '']],
    [
      'Windows paths with quotes',
      '"C:\\Program Files\\nodejs\\node.exe" a.mjs',
      ['C:\\Program Files\\nodejs\\node.exe', 'a.mjs'],
    ],
    ['unicode is kept', 'node "analyze 📈.mjs"', ['node', 'analyze 📈.mjs']],
  ])('%s', (_name, line, argv) => {
    expect(parseCommandLine(line)).toEqual(argv);
  });

  it.each<[string, string, string[]]>([
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell variable, as a user would write it
    ['$VAR', 'echo $HOME ${PATH}', ['echo', '$HOME', '${PATH}']],
    ['$VAR in double quotes', 'echo "$HOME"', ['echo', '$HOME']],
    ['globs', 'ls *.mjs ?', ['ls', '*.mjs', '?']],
    ['tilde', 'node ~/a.mjs', ['node', '~/a.mjs']],
    ['pipes', 'node a.mjs | tee log', ['node', 'a.mjs', '|', 'tee', 'log']],
    ['sequences and background', 'a;b && c & d', ['a;b', '&&', 'c', '&', 'd']],
    ['redirections', 'node a.mjs >out 2>&1 <in', ['node', 'a.mjs', '>out', '2>&1', '<in']],
    ['command substitution', 'echo $(id) `id`', ['echo', '$(id)', '`id`']],
    ['comments', 'node a.mjs # note', ['node', 'a.mjs', '#', 'note']],
  ])('leaves %s to the program, unexpanded', (_name, line, argv) => {
    expect(parseCommandLine(line)).toEqual(argv);
  });

  it.each<[string, string, string]>([
    ['an empty line', '', 'analyzer.command: the command is empty'],
    ['a blank line', ' \t\n ', 'analyzer.command: the command is empty'],
    ['an unterminated single quote', "node 'a.mjs", "unterminated single quote (') at character 6"],
    ['an unterminated double quote', 'node a "b\\"', 'unterminated double quote (") at character 8'],
    ['a lone backslash at the end', 'node a.mjs \\', 'ends with a lone backslash'],
    ['an empty program name', `"" a.mjs`, 'starts with an empty program name'],
    ['a NUL character', 'node a\0.mjs', 'contains a NUL character'],
  ])('refuses %s with a usage error', (_name, line, message) => {
    let error: unknown;
    try {
      parseCommandLine(line);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).message).toContain(message);
    expect((error as UsageError).hint).toContain('agent config set analyzer.command');
  });

  it('names the setting it was given for, with that setting in the hint', () => {
    let error: unknown;
    try {
      parseCommandLine("/usr/bin/node 'a.mjs", 'alert.command');
    } catch (caught) {
      error = caught;
    }
    expect((error as UsageError).message).toMatch(/^alert\.command: the command has an unterminated single quote/);
    expect((error as UsageError).hint).toContain('agent config set alert.command');
  });
});
