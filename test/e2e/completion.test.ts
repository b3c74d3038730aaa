import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAgent } from './harness.js';

// docs/cli.md completion: `agent completion bash|zsh|fish` prints a script that completes commands, their
// options and the choices of those, and the config keys. Each script is checked by its own shell, and
// completes what a person types there.

let home: string;
const scripts: Record<string, string> = {};
beforeAll(async () => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-completion-'));
  for (const shell of ['bash', 'zsh', 'fish']) {
    const result = await runAgent(['completion', shell], home);
    expect(result, result.stderr).toMatchObject({ code: 0, stderr: '' });
    scripts[shell] = path.join(home, `agent.${shell}`);
    fs.writeFileSync(scripts[shell], result.stdout);
  }
  // Agents made with --agent: the names --agent completes to (a file there is none).
  const agents = path.join(home, '.config', 'prediction-agent', 'agents');
  for (const name of ['alpha', 'alto', 'beta']) fs.mkdirSync(path.join(agents, name), { recursive: true });
  fs.writeFileSync(path.join(agents, 'also-a-file'), '');
});
afterAll(() => fs.rmSync(home, { recursive: true, force: true }));

const has = (shell: string) => spawnSync('sh', ['-c', `command -v ${shell}`]).status === 0;

/** What the line completes to, the last word being the one completed ('' for a new word). */
type Complete = (line: string[]) => string[];

const bashComplete: Complete = (line) => {
  const words = line.map((w) => `'${w}'`).join(' ');
  const run = spawnSync(
    'bash',
    [
      '-c',
      `source "$1" && COMP_WORDS=(${words}) && COMP_CWORD=${line.length - 1} && $(complete -p ${line[0]} | sed -e 's/^complete -F \\([^ ]*\\).*/\\1/') && printf '%s\\n' "\${COMPREPLY[@]}"`,
      'bash',
      scripts.bash!,
    ],
    { encoding: 'utf8', cwd: home, env: { HOME: home, PATH: process.env.PATH } },
  );
  expect(run.stderr).toBe('');
  return run.stdout.split('\n').filter(Boolean).sort();
};

// zsh runs the bash function through bashcompinit; driven here as its completion system would, under
// sh emulation. Its compgen leaves matching the typed word to zsh (compadd), which is done here.
const zshComplete: Complete = (line) => {
  const words = line.map((w) => `'${w}'`).join(' ');
  const run = spawnSync(
    'zsh',
    [
      '-fc',
      `autoload -U compinit && compinit -u -D && source "$1" && [[ -n $_comps[${line[0]}] ]] && emulate sh -c 'PREFIX=${line.at(-1)}; COMP_WORDS=(${words}); COMP_CWORD=${line.length - 1}; _prediction_agent; printf "%s\\n" "\${COMPREPLY[@]}"'`,
      'zsh',
      scripts.zsh!,
    ],
    { encoding: 'utf8', cwd: home, env: { HOME: home, PATH: process.env.PATH } },
  );
  expect(run.stderr).toBe('');
  return run.stdout
    .split('\n')
    .filter((word) => word !== '' && word.startsWith(line.at(-1)!))
    .sort();
};

const fishComplete: Complete = (line) => {
  const typed = line.map((w) => w.replaceAll("'", "\\'")).join(' ');
  const run = spawnSync('fish', ['--no-config', '-c', `source $argv[1]; complete -C '${typed}'`, scripts.fish!], {
    encoding: 'utf8',
    cwd: home,
    env: { HOME: home, PATH: process.env.PATH },
  });
  expect(run.stderr).toBe('');
  return run.stdout
    .split('\n')
    .filter(Boolean)
    .map((entry) => entry.split('\t')[0]!)
    .sort();
};

const CASES: Array<[what: string, line: string[], expected: string[] | ((got: string[]) => void)]> = [
  ['a command', ['agent', 'pol'], ['poll']],
  ['the other name', ['prediction-agent', 'sch'], ['schedule']],
  ['a subcommand', ['agent', 'config', ''], ['get', 'set', 'unset']],
  [
    'a config key',
    ['agent', 'config', 'set', 'analyzer'],
    ['analyzer', 'analyzer.command', 'analyzer.fallback', 'analyzer.timeout'],
  ],
  ["a key's values", ['agent', 'config', 'set', 'analyzer', ''], ['builtin', 'command', 'llm']],
  ["a command's option", ['agent', 'poll', '--wa'], ['--watch']],
  ['an option of every command', ['agent', 'stats', '--js'], ['--json']],
  ["an option's choices", ['agent', 'register', '--signal-method', 'o'], ['onchain']],
  ['after a global option and its value', ['agent', '--config-dir', '/tmp/x', 'hist'], ['history']],
  ['the shells', ['agent', 'completion', ''], ['bash', 'fish', 'zsh']],
  ['the names of the agents for --agent', ['agent', '--agent', 'al'], ['alpha', 'alto']],
  ['every agent for --agent, after a command', ['agent', 'poll', '--agent', ''], ['alpha', 'alto', 'beta']],
  ['help of a subcommand', ['agent', 'help', 'config', 's'], ['set']],
  ['a help topic', ['agent', 'help', 'e'], ['environment', 'exit-codes']],
  ['a command or a help topic', ['agent', 'help', 'c'], ['completion', 'config', 'cron']],
  ['no option that is not there', ['agent', 'me', '--li'], []],
  [
    'a directory for --config-dir',
    ['agent', '--config-dir', '/tm'],
    (got) => expect(got.map((dir) => dir.replace(/\/$/, ''))).toContain('/tmp'),
  ],
];

describe.each([
  ['bash', bashComplete, ['bash', '-n']],
  ['zsh', zshComplete, ['zsh', '-n']],
  ['fish', fishComplete, ['fish', '--no-execute']],
] as const)('agent completion %s', (shell, complete, check) => {
  it.skipIf(!has(shell))('is a valid script for that shell', () => {
    const run = spawnSync(check[0], [check[1], scripts[shell]!], { encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(0);
  });

  it.skipIf(!has(shell)).each(CASES)('completes %s', (_what, line, expected) => {
    const got = complete(line);
    if (typeof expected === 'function') expected(got);
    else expect(got).toEqual(expected);
  });
});

it('an unknown shell is a usage error', async () => {
  const result = await runAgent(['completion', 'tcsh'], home);
  expect(result.code).toBe(2);
  expect(result.stderr).toContain('bash, zsh, fish');
});
