// Colour support is decided when ora's colour library loads, from the environment: forced on here,
// before the first spinner loads it, so that what NO_COLOR takes away can be seen.
process.env.FORCE_COLOR = '1';

import { expect, it } from 'vitest';
import { makeOutput } from '../support/streams.js';

const COLOUR = /\u001b\[3\dm/;

it.each([
  [false, true],
  [true, false],
])('NO_COLOR %s: the spinner is coloured: %s', async (noColor, coloured) => {
  const { output, stderr } = makeOutput({ stderrTTY: true, noColor });
  Object.assign(stderr, { columns: 80, cursorTo() {}, clearLine() {}, moveCursor() {} });
  const spinner = await output.spinner('working');
  spinner.stop();
  expect(stderr.text).toContain('working');
  expect(COLOUR.test(stderr.text)).toBe(coloured);
});
