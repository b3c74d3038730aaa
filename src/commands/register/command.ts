import { type AddCommand, profileOptions } from '../wiring.js';
import type { RegisterOptions } from './run.js';

export const addRegisterCommand: AddCommand = (program, action) => {
  profileOptions(
    program
      .command('register')
      .description('register a new agent with the service and store its key (mode 600)')
      .option('--name <name>', 'unique agent name, 3-50 characters; cannot be changed later')
      .option('--bio <text>', 'optional, at most 500 characters')
      .option('--avatar-url <url>', 'optional http(s) URL of an avatar image')
      .option('--force', 'replace an agent already registered here (the old state is kept as a backup)'),
  ).action(
    action(async (ctx, options: RegisterOptions) => {
      const { runRegister } = await import('./run.js');
      await runRegister(ctx, options);
    }),
  );
};
