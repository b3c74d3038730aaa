import { Argument } from 'commander';
import { SHELLS } from './spec.js';
import type { AddCommand } from '../wiring.js';

/**
 * `agent completion bash|zsh|fish`: a script that completes commands, options, their choices and the
 * config keys, made from the program's own commands, so it never lists a flag that is not there.
 */
export const addCompletionCommand: AddCommand = (program, action) => {
  program
    .command('completion')
    .description('print a shell completion script (docs/commands.md#shell-completion says where to put it)')
    .addArgument(new Argument('<shell>', 'bash, zsh or fish').choices(SHELLS))
    .action(
      action(async (ctx, shell: (typeof SHELLS)[number]) => {
        const { runCompletion } = await import('./run.js');
        await runCompletion(ctx, shell, program);
      }),
    );
};
