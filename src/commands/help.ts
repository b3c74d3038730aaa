import type { Command } from 'commander';
import { UsageError } from '../errors.js';
import type { AddCommand } from './wiring.js';

/**
 * `agent help [command...]`, in place of commander's own: that one printed the whole help on stderr and
 * "a command is needed" for a command that does not exist, and knew one level only (`help config set`).
 */
export const addHelpCommand: AddCommand = (program) => {
  program.helpCommand(false);
  program
    .command('help')
    .description('display help for command')
    .argument('[command...]', 'the command, e.g. poll, or config set')
    .action((names: string[]) => {
      let command: Command = program;
      const path = ['agent'];
      for (const name of names) {
        const sub = command.commands.find((c) => c.name() === name || c.aliases().includes(name));
        if (!sub) {
          throw new UsageError(`unknown command '${[...path.slice(1), name].join(' ')}'`, {
            hint: `run "${path.join(' ')} --help" for usage`,
          });
        }
        command = sub;
        path.push(name);
      }
      command.help();
    });
};
