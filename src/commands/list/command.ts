import type { AddCommand } from '../wiring.js';

/** `agent list` has no flags (nor options type) of its own: the global ones (--json) are all it takes. */
export const addListCommand: AddCommand = (program, action) => {
  program
    .command('list')
    .alias('agents')
    .description('every agent of this user, one row each, from its files (exit 1 when one is failing)')
    .action(
      action(async (ctx) => {
        const { runList } = await import('./run.js');
        return runList(ctx);
      }),
    );
};
