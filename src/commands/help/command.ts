import type { AddCommand } from '../wiring.js';

/**
 * `agent help [command...]` and `agent help <topic>` (../topics.ts), in place of commander's own: that one
 * printed the whole help on stderr and "a command is needed" for a command that does not exist, and knew
 * one level only (`help config set`).
 * It needs no context: help is printed before any config dir is looked at.
 */
export const addHelpCommand: AddCommand = (program) => {
  program.helpCommand(false);
  program
    .command('help')
    .description('display help for a command, or a help topic (agent help exit-codes)')
    .argument('[command...]', 'the command, e.g. poll, or config set; or a topic')
    .action(async (names: string[]) => {
      const { runHelp } = await import('./run.js');
      runHelp(program, names);
    });
};
