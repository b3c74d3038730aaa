import type { Command } from 'commander';
import { SETTING_NAMES, settingSpec } from '../../settings/table.js';
import { topicNames } from '../topics.js';
import { bashScript, zshScript } from './bash.js';
import { fishScript } from './fish.js';
import type { CompletionSpec, OptionSpec, SHELLS } from './spec.js';

// What `agent completion` prints: the program's own commands read into a CompletionSpec, written for one
// shell. Loaded only by that command.

/** Options whose value is a path: the shell offers files (or directories) there. */
const PATH_OPTIONS: Record<string, 'file' | 'dir'> = {
  '--config-dir': 'dir',
  '--log': 'file',
  '--state': 'file',
  '--export': 'file',
};

/** After `config set <setting>`: the words or files its value may be, as the settings table says. */
const SETTING_VALUES = Object.fromEntries(
  SETTING_NAMES.flatMap((name) => {
    const complete = settingSpec(name).complete;
    return complete ? [[name, 'words' in complete ? { words: complete.words } : { path: complete.path }]] : [];
  }),
);

/** The words each command takes after its options, where the program knows them. */
const ARGUMENTS: Record<string, CompletionSpec['commands'][number]['args']> = {
  'config get': [{ words: SETTING_NAMES }],
  'config unset': [{ words: SETTING_NAMES }],
  'config set': [{ words: SETTING_NAMES }, { byPrevious: SETTING_VALUES }],
  backtest: [{ path: 'file' }],
};

/**
 * The completion script for `shell`, made from the commands of `program`, for `platform`: where its
 * default config dir is (env-paths: `~/Library/Preferences` on macOS, the XDG config dir elsewhere).
 */
export function completionScript(shell: (typeof SHELLS)[number], program: Command, platform: NodeJS.Platform): string {
  const configBase =
    platform === 'darwin' ? { xdg: false, home: 'Library/Preferences' } : { xdg: true, home: '.config' };
  return { bash: bashScript, zsh: zshScript, fish: fishScript }[shell]({ ...specOf(program), configBase });
}

function specOf(program: Command): Omit<CompletionSpec, 'configBase'> {
  const commands: CompletionSpec['commands'] = [];
  const walk = (command: Command, path: string[]) => {
    const name = path.join(' ');
    const subcommands = command.commands.map((sub) => sub.name());
    commands.push({
      path: name,
      description: command.description(),
      subcommands,
      options: path.length === 0 ? [] : command.options.filter((o) => !o.hidden).map(optionSpec),
      args: name === 'help' ? [{ commands: true, topics: topicNames() }] : (ARGUMENTS[name] ?? argumentsOf(command)),
    });
    for (const sub of command.commands) walk(sub, [...path, sub.name()]);
  };
  walk(program, []);
  const help = { long: '--help', short: '-h', description: 'display help for command', value: false };
  return { names: ['agent', 'prediction-agent'], global: [...program.options.map(optionSpec), help], commands };
}

function optionSpec(option: Command['options'][number]): OptionSpec {
  const long = option.long ?? undefined;
  return {
    long,
    short: option.short ?? undefined,
    description: option.description,
    value: option.required || option.optional,
    choices: option.argChoices,
    path: long === undefined ? undefined : PATH_OPTIONS[long],
    ...(long === '--agent' ? { agents: true as const } : {}),
  };
}

function argumentsOf(command: Command): CompletionSpec['commands'][number]['args'] {
  return command.registeredArguments.map((argument) => (argument.argChoices ? { words: argument.argChoices } : {}));
}
