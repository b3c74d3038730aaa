import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { askLine } from '../../src/output/ask.js';

// A terminal's keys, written into the question's input: readline turns Ctrl-C (\x03) and Ctrl-D (\x04 on
// an empty line) into the end of the question.

function terminal() {
  const input = new PassThrough();
  const output = new PassThrough();
  let shown = '';
  output.on('data', (chunk: Buffer) => (shown += chunk.toString('utf8')));
  return { input, output, shown: () => shown };
}

describe('askLine', () => {
  it('returns the line typed', async () => {
    const t = terminal();
    const answer = askLine('Agent name: ', t.input, t.output, true);
    t.input.write('my-agent\r');
    await expect(answer).resolves.toBe('my-agent');
    expect(t.shown()).toContain('Agent name: ');
  });

  it.each([
    ['Ctrl-C', '\u0003'],
    ['Ctrl-D', '\u0004'],
  ])('%s is a cancellation (exit 130, "cancelled, nothing sent"), not an unexpected error', async (_key, bytes) => {
    const t = terminal();
    const answer = askLine('Agent name: ', t.input, t.output, true);
    t.input.write(bytes);
    await expect(answer).rejects.toMatchObject({ exitCode: 130, message: 'cancelled, nothing sent' });
  });

  it('the end of a piped input is a cancellation too', async () => {
    const t = terminal();
    const answer = askLine('Agent name: ', t.input, t.output, false);
    t.input.end();
    await expect(answer).rejects.toMatchObject({ exitCode: 130 });
  });
});
