import type { AddCommand } from '../wiring.js';

export const addMeCommand: AddCommand = (program, action) => {
  program
    .command('me')
    .description("show this agent's profile and counters")
    .action(
      action(async (ctx) => {
        const { runMe } = await import('./run.js');
        await runMe(ctx);
      }),
    );
};
