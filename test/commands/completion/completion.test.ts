import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Command } from 'commander';
import { afterAll, describe, expect, it } from 'vitest';
import { COMMANDS } from '../../../src/commands/index.js';
import { SETTING_NAMES } from '../../../src/settings/table.js';
import { cli } from '../../support/in-process.js';

// `agent completion` in-process (through runCli: the script is made from the program itself). Each
// script is checked against the commands and options the program really has; test/e2e/completion.test.ts
// runs each script in its own shell.

const home = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-completion-'));
afterAll(() => fs.rmSync(home, { recursive: true, force: true }));

/** The commands as COMMANDS adds them, with their own options (the global ones are cli.ts's). */
function commands(): Array<{ path: string; flags: string[] }> {
  const program = new Command('agent');
  for (const add of COMMANDS) add(program, () => async () => {});
  const all: Array<{ path: string; flags: string[] }> = [];
  const walk = (command: Command, prefix: string) => {
    for (const sub of command.commands) {
      const at = `${prefix}${sub.name()}`;
      const flags = sub.options.flatMap((o) => [o.long, o.short]).filter((f): f is string => !!f);
      all.push({ path: at, flags });
      walk(sub, `${at} `);
    }
  };
  walk(program, '');
  return all;
}

async function script(shell: string): Promise<string> {
  const result = await cli(['completion', shell], home);
  expect(result).toMatchObject({ code: 0, stderr: '' });
  return result.stdout;
}

/** bash's (and zsh's) table of the options it completes after each command path. */
function bashOptions(text: string): Map<string, string[]> {
  const body = text.split('_prediction_agent_options() {')[1]!.split('\n}\n')[0]!;
  return new Map([...body.matchAll(/^ {4}'([^']*)'\) echo (.*) ;;$/gm)].map((m) => [m[1]!, m[2]!.split(' ')] as const));
}

describe('agent completion', () => {
  it.each(['bash', 'zsh'])(
    '%s: after each command, exactly its own options and the global ones; every command and config key',
    async (shell) => {
      const text = await script(shell);
      if (shell === 'zsh') expect(text).toContain('autoload -U +X bashcompinit && bashcompinit');
      expect(text).toMatch(/^complete -F \S+ agent prediction-agent$/m);
      const options = bashOptions(text);
      const global = options.get('')!;
      for (const flag of ['--json', '--config-dir', '--base-url', '--quiet', '-q', '--verbose', '-v', '--help'])
        expect(global).toContain(flag);
      const all = commands();
      expect(all.map((c) => c.path)).toEqual(expect.arrayContaining(['poll', 'schedule', 'config set', 'help']));
      for (const command of all) {
        expect(new Set(options.get(command.path)), command.path).toEqual(new Set([...command.flags, ...global]));
      }
      expect(text).toContain(
        `echo ${all
          .filter((c) => !c.path.includes(' '))
          .map((c) => c.path)
          .join(' ')} ;;`,
      );
      for (const name of SETTING_NAMES) expect(text).toContain(name);
    },
  );

  it('fish: each command, and each long option of each command, for agent and prediction-agent', async () => {
    const text = await script('fish');
    expect(text).toMatch(/^complete -c agent -f$/m);
    expect(text).toMatch(/^complete -c prediction-agent -w agent$/m);
    for (const command of commands()) {
      const name = command.path.split(' ').at(-1)!;
      expect(text, command.path).toMatch(new RegExp(`^complete -c agent -n .* -a '${name}'`, 'm'));
      for (const flag of command.flags.filter((f) => f.startsWith('--')))
        expect(text, `${command.path} ${flag}`).toContain(`-l ${flag.slice(2)}`);
    }
  });

  it('--json: the shell and the script as one document', async () => {
    const result = await cli(['--json', 'completion', 'fish'], home);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ shell: 'fish', script: await script('fish') });
  });

  it('an unknown shell is a usage error (exit 2) naming the three', async () => {
    const result = await cli(['completion', 'tcsh'], home);
    expect(result).toMatchObject({ code: 2, stdout: '' });
    expect(result.stderr).toMatch(/^agent: .*tcsh.*bash, zsh, fish/);
  });
});
