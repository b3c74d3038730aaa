import { describe, expect, it } from 'vitest';
import { lineSplitter } from '../../../src/analysis/command/lines.js';

function split(chunks: string[], cap?: number) {
  const lines: string[] = [];
  const splitter = lineSplitter((line) => lines.push(line), cap);
  for (const chunk of chunks) splitter.push(chunk);
  splitter.end();
  return { lines, last: splitter.last() };
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
