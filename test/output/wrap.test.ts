import { describe, expect, it } from 'vitest';
import { fitLines, wrapLine } from '../../src/output/wrap.js';
import { makeOutput } from '../support/streams.js';

describe('lines for a terminal', () => {
  it('a line that fits is left as it is, its padding included', () => {
    expect(wrapLine('a    b', 10)).toEqual(['a    b']);
  });

  it('a longer one is broken at spaces, never mid-word, the rest indented under its own indent', () => {
    const text = '  one two three four five six seven eight nine ten';
    const lines = wrapLine(text, 20);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(20);
    expect(lines.join(' ').split(/ +/).filter(Boolean)).toEqual(text.trim().split(' '));
    expect(lines.slice(1).every((line) => line.startsWith('      ') && line[6] !== ' ')).toBe(true);
  });

  it('keeps the spaces that align columns on the first line', () => {
    expect(wrapLine('x  bitcoin   t1  a reason that goes on', 20)[0]).toBe('x  bitcoin   t1  a');
  });

  it('cuts only a word wider than a whole line', () => {
    expect(wrapLine(`go ${'x'.repeat(25)}`, 10)).toEqual([
      'go',
      `    ${'x'.repeat(6)}`,
      `    ${'x'.repeat(6)}`,
      `    ${'x'.repeat(6)}`,
      `    ${'x'.repeat(6)}`,
      `    ${'x'}`,
    ]);
  });

  it('passes painted lines as they are: their maker sizes them', () => {
    const painted = ['name', { paint: 'cyan' as const, text: 'x'.repeat(50) }];
    expect(fitLines([painted], 20)).toEqual([painted]);
  });
});

describe('painted pieces', () => {
  it('are coloured by the output only where colour is allowed, and sanitised like any text', () => {
    const line = ['a ', { paint: 'cyan' as const, text: 'bars\u001b]0;title\u0007' }];
    const coloured = makeOutput({ stdoutTTY: true });
    coloured.output.result([line], {});
    expect(coloured.stdout.text).toBe('a \u001b[36mbars\u001b[39m\n');
    for (const options of [{ stdoutTTY: true, noColor: true }, { stdoutTTY: false }]) {
      const { output, stdout } = makeOutput(options);
      output.result([line], {});
      expect(stdout.text).toBe('a bars\n');
    }
  });
});
