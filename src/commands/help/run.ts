import type { Command } from 'commander';
import { UsageError } from '../../errors.js';
import { TOPICS } from '../topics.js';
import { toTerminal } from './blocks.js';
import { TOPIC_TEXT } from './topic-text.js';

/**
 * Prints the help topic `names` name, or the help of the command they spell under `program` (commander's
 * help, which ends the run). A topic goes where commander's help goes: stdout.
 */
export function runHelp(program: Command, names: string[]): void {
  const topic = names.length === 1 ? TOPICS.find((t) => t.name === names[0]) : undefined;
  if (topic) {
    program.configureOutput().writeOut?.(toTerminal(TOPIC_TEXT[topic.name]()));
    return;
  }
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
