import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PROFILE_FLAGS, runAgent } from './harness.js';

// Every command takes the global options, so its own help must list them; a usage error points at the
// help of the command that was typed.

const homes: string[] = [];
afterEach(() => {
  for (const dir of homes.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

const home = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-help-'));
  homes.push(dir);
  return dir;
};

describe('help and usage errors', () => {
  it.each([['predict'], ['poll'], ['register'], ['config', 'set']])(
    'the help of %s %s lists the global options it inherits',
    async (...command: string[]) => {
      const result = await runAgent([...command, '--help'], home());
      expect(result.code).toBe(0);
      const global = result.stdout.split('Global Options:')[1] ?? '';
      for (const flag of ['--json', '-v, --verbose', '-q, --quiet', '--config-dir <dir>', '--base-url <url>'])
        expect(global).toContain(flag);
    },
  );

  it.each([
    [['predict', 'x', '--bogus'], 'agent predict'],
    [['config', 'set', 'analyzer'], 'agent config set'],
    [['poll', '--limit'], 'agent poll'],
    [['bogus'], 'agent'],
  ])('%j: one "agent:" line, like every other error, with a hint at that command\'s help', async (args, command) => {
    const result = await runAgent(args, home());
    expect(result.code).toBe(2);
    const lines = result.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^agent: .+ \\(run "${command} --help" for usage\\)$`));
  });

  it("help <command> prints that command's help; help of a command that does not exist says so (exit 2)", async () => {
    const known = await runAgent(['help', 'poll'], home());
    expect(known.code).toBe(0);
    expect(known.stdout).toMatch(/^Usage: agent poll /);
    const nested = await runAgent(['help', 'config', 'set'], home());
    expect(nested.code).toBe(0);
    expect(nested.stdout).toMatch(/^Usage: agent config set /);
    const unknown = await runAgent(['help', 'nosuch'], home());
    expect(unknown).toMatchObject({
      code: 2,
      stdout: '',
      stderr: 'agent: unknown command \'nosuch\' (run "agent --help" for usage)\n',
    });
    const unknownSub = await runAgent(['help', 'config', 'nosuch'], home());
    expect(unknownSub).toMatchObject({
      code: 2,
      stderr: 'agent: unknown command \'config nosuch\' (run "agent config --help" for usage)\n',
    });
  });

  it('a usage error with --json is one JSON document, and with -v after the command still one line', async () => {
    const json = await runAgent(['--json', 'poll', '--limit'], home());
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stdout)).toEqual({ error: { code: 2, message: expect.stringContaining('--limit') } });
    const verbose = await runAgent(['predict', 'x', '--bogus', '-v'], home());
    expect(verbose.stderr).toMatch(/^agent: unknown option '--bogus'.*\n$/);
  });

  it.each([
    ['not registered', ['me'], 3],
    ['a usage error', ['poll', '--limit', '0'], 2],
    ['nothing listening', ['register', '--base-url', 'http://127.0.0.1:9', '--name', 'x-agent', ...PROFILE_FLAGS], 5],
  ])('-v prints no stack trace for an expected error (%s): one line, as without -v', async (_what, args, code) => {
    const dir = home();
    const result = await runAgent(['--config-dir', path.join(dir, 'cfg'), ...args, '-v'], dir);
    expect(result.code).toBe(code);
    expect(result.stderr).toMatch(/^agent: [^\n]+\n$/);
  });
});
