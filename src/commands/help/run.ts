import type { Command } from 'commander';
import { UsageError } from '../../errors.js';

/** Prints the help of the command `names` spell under `program` (commander's help, which ends the run). */
export function runHelp(program: Command, names: string[]): void {
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
}
