import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli } from '../../support/in-process.js';

// `agent help` and usage errors, in-process through runCli (help needs the program, and prints before any
// config dir is looked at). test/e2e/help.test.ts runs the same on the binary.

const home = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-help-'));
afterAll(() => fs.rmSync(home, { recursive: true, force: true }));

const GLOBAL = ['--json', '-v, --verbose', '-q, --quiet', '--config-dir <dir>', '--base-url <url>'];

describe('agent help', () => {
  it.each([[['poll']], [['config', 'set']], [['schedule']]])(
    "help %j prints that command's help on stdout, with the global options it inherits",
    async (names) => {
      const result = await cli(['help', ...names], home);
      expect(result).toMatchObject({ code: 0, stderr: '' });
      expect(result.stdout).toMatch(new RegExp(`^Usage: agent ${names.join(' ')} `));
      expect(result.stdout).toBe((await cli([...names, '--help'], home)).stdout);
      const global = result.stdout.split('Global Options:')[1] ?? '';
      for (const flag of GLOBAL) expect(global).toContain(flag);
    },
  );

  it('help alone is the program help, every command listed', async () => {
    const result = await cli(['help'], home);
    expect(result.code).toBe(0);
    for (const command of ['register', 'poll', 'schedule', 'predict', 'history', 'doctor', 'completion'])
      expect(result.stdout).toMatch(new RegExp(`^ {2}${command}\\b`, 'm'));
  });

  it('help of a command that does not exist: exit 2, one line naming it, with the help to run', async () => {
    expect(await cli(['help', 'nosuch'], home)).toEqual({
      code: 2,
      stdout: '',
      stderr: 'agent: unknown command \'nosuch\' (run "agent --help" for usage)\n',
    });
    expect(await cli(['help', 'config', 'nosuch'], home)).toMatchObject({
      code: 2,
      stderr: 'agent: unknown command \'config nosuch\' (run "agent config --help" for usage)\n',
    });
  });
});

describe('usage errors', () => {
  it.each([
    [['predict', 'x', '--bogus'], 'agent predict'],
    [['config', 'set', 'analyzer'], 'agent config set'],
    [['poll', '--limit'], 'agent poll'],
    [['bogus'], 'agent'],
  ])('%j: exit 2, one "agent:" line pointing at that command\'s help', async (args, command) => {
    const result = await cli(args, home);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(new RegExp(`^agent: [^\\n]+ \\(run "${command} --help" for usage\\)\\n$`));
  });

  it('with --json: one JSON document on stdout', async () => {
    const result = await cli(['--json', 'poll', '--limit'], home);
    expect(result.code).toBe(2);
    expect(JSON.parse(result.stdout)).toEqual({ error: { code: 2, message: expect.stringContaining('--limit') } });
  });
});
