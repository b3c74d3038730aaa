import type { AddCommand } from './wiring.js';
import { profileFlags, profileOptions } from './wiring.js';

type ProfileOptions = Parameters<typeof profileFlags>[0];

export const addAccountCommands: AddCommand = (program, action) => {
  profileOptions(
    program
      .command('register')
      .description('register a new agent with the service and store its key (mode 600)')
      .option('--name <name>', 'unique agent name, 3-50 characters; cannot be changed later')
      .option('--bio <text>', 'optional, at most 500 characters')
      .option('--avatar-url <url>', 'optional http(s) URL of an avatar image')
      .option('--force', 'replace an agent already registered here (the old state is kept as a backup)'),
  ).action(
    action(
      async (ctx, options: ProfileOptions & { name?: string; bio?: string; avatarUrl?: string; force?: boolean }) => {
        const { runRegister } = await import('../account/register.js');
        await runRegister(
          {
            ...profileFlags(options),
            name: options.name,
            bio: options.bio,
            avatarUrl: options.avatarUrl,
            force: !!options.force,
          },
          ctx,
        );
      },
    ),
  );

  program
    .command('me')
    .description("show this agent's profile and counters")
    .action(
      action(async (ctx) => {
        const { runMe } = await import('../account/me.js');
        await runMe(ctx);
      }),
    );

  profileOptions(
    program
      .command('update')
      .description('change the bio or prediction profile (the name cannot change)')
      .option('--bio <text>', 'new bio, at most 500 characters'),
    true,
  ).action(
    action(async (ctx, options: ProfileOptions & { bio?: string }) => {
      const { runUpdate } = await import('../account/update.js');
      await runUpdate({ ...profileFlags(options), bio: options.bio }, ctx);
    }),
  );
};
