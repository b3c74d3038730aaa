import { describe, expect, it } from 'vitest';
import { lineSplitter } from '../../../src/analysis/command/lines.js';

function split(chunks: string[], cap?: number) {
  const lines: string[] = [];
  const splitter = lineSplitter((line) => lines.push(line), cap);
  for (const chunk of chunks) splitter.push(chunk);
  splitter.end();
  return { lines, last: splitter.telling() };
}

describe('lineSplitter', () => {
  it.each<[string, string[], string[], string]>([
    ['whole lines', ['a\nb\n'], ['a', 'b'], 'b'],
    ['lines across chunks', ['ab', 'c\nd', 'e\n'], ['abc', 'de'], 'de'],
    ['a last line without newline', ['a\nb'], ['a', 'b'], 'b'],
    ['CRLF', ['a\r\nb\r\n'], ['a', 'b'], 'b'],
    ['blank lines skipped', ['\n  \n\r\na\n\n'], ['a'], 'a'],
    ['nothing', [], [], ''],
  ])('%s', (_name, chunks, lines, last) => {
    expect(split(chunks)).toEqual({ lines, last });
  });

  it.each([
    [
      "Node's crash: the error, not the version after it",
      "node:internal/modules/cjs/loader:1228\n  throw err;\n  ^\n\nError: Cannot find module '/x.mjs'\n    at Module._resolveFilename (node:internal)\n  code: 'MODULE_NOT_FOUND'\n}\n\nNode.js v20.20.2\n",
      "Error: Cannot find module '/x.mjs'",
    ],
    [
      "Node's ESM error with its code",
      'node:internal/errors:496\nTypeError [ERR_UNKNOWN_FILE_EXTENSION]: Unknown file extension ".ts"\nNode.js v20.20.2\n',
      'TypeError [ERR_UNKNOWN_FILE_EXTENSION]: Unknown file extension ".ts"',
    ],
    [
      "Python's traceback: its last line is the error",
      'Traceback (most recent call last):\n  File "a.py", line 1, in <module>\n    import nope\nModuleNotFoundError: No module named \'nope\'\n',
      "ModuleNotFoundError: No module named 'nope'",
    ],
    ['a plain message', 'starting\nerror: no model configured\nbye\n', 'error: no model configured'],
    ['nothing that reads as an error: the last line', 'one\ntwo\n', 'two'],
  ])('quotes the line that says what went wrong: %s', (_name, text, telling) => {
    expect(split([text]).last).toBe(telling);
  });

  it('cuts a line at the cap and drops the rest of it', () => {
    expect(split(['abcdef', 'ghij\nxy\n', 'klmnopq'], 4).lines).toEqual(['abcd', 'xy', 'klmn']);
  });

  it('keeps memory bounded on a huge line without a newline', () => {
    const lines: string[] = [];
    const splitter = lineSplitter((line) => lines.push(line), 1000);
    for (let i = 0; i < 1000; i += 1) splitter.push('x'.repeat(10_000));
    splitter.end();
    expect(lines).toEqual(['x'.repeat(1000)]);
  });
});
