import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkAsCronRunsIt } from '../../../src/analysis/command/check.js';
import { UsageError } from '../../../src/errors.js';

let home: string;
beforeEach(() => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-home-'));
  fs.mkdirSync(path.join(home, 'examples'));
  fs.writeFileSync(path.join(home, 'examples', 'mine.mjs'), '', { mode: 0o644 });
});
afterEach(() => fs.rmSync(home, { recursive: true, force: true }));

const node = `'${process.execPath}'`;

describe('an analyzer command as cron runs it (from the home directory, without a shell)', () => {
  it('finds a script named relative to the home directory, by its extension or from ./', () => {
    expect(checkAsCronRunsIt(`${node} examples/mine.mjs`, home)).toEqual([]);
    expect(checkAsCronRunsIt(`${node} ./examples/mine.mjs --fast`, home)).toEqual([]);
  });

  it.each([
    ['a script by its extension', 'examples/gone.mjs'],
    ['a path from ./', './gone'],
    ['an absolute path', '/nonexistent/analyzer.mjs'],
  ])('fails on %s that is not there', (_what, arg) => {
    expect(() => checkAsCronRunsIt(`${node} ${arg}`, home)).toThrow(UsageError);
  });

  it('leaves alone what need not be a file: a model name with a slash, a URL, an option', () => {
    expect(
      checkAsCronRunsIt(`${node} examples/mine.mjs mistralai/Mistral-7B http://127.0.0.1:1/v1 --out=/x/y`, home),
    ).toEqual([]);
  });

  it('doubts a bare program that is not where cron looks for it', () => {
    expect(checkAsCronRunsIt('surely-no-such-program-here x', home)).toEqual([
      'cron looks for surely-no-such-program-here in /usr/bin and /bin only; give its full path',
    ]);
  });
});
