import { type AddCommand, profileOptions } from '../wiring.js';
import type { UpdateOptions } from './run.js';

export const addUpdateCommand: AddCommand = (program, action) => {
  profileOptions(
    program
      .command('update')
      .description('change the bio or prediction profile (the name cannot change)')
      .option('--bio <text>', 'new bio, at most 500 characters'),
    true,
  ).action(
    action(async (ctx, options: UpdateOptions) => {
      const { runUpdate } = await import('./run.js');
      await runUpdate(ctx, options);
    }),
  );
};
