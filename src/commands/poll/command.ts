import type { AddCommand } from '../wiring.js';
import type { PollOptions } from './run.js';

export const addPollCommand: AddCommand = (program, action) => {
  program
    .command('poll')
    .description('one polling cycle: fetch new threads, analyze, post or skip, save the cursor (what cron runs)')
    .option('--limit <n>', 'threads per page (default 50)')
    .option('--dry-run', 'analyze and print decisions, post nothing, change no state')
    .option('--watch', 'stay running and poll every --interval seconds, until Ctrl-C or SIGTERM')
    .option('--all', 'with --watch: poll every registered agent of this user (agent list), in turn')
    .option('--interval <seconds>', 'with --watch: seconds between cycles, at least 30 (default 300)')
    .option('--log <file>', 'append the output to this file (created mode 600), each line after its time')
    .action(
      action(async (ctx, options: PollOptions) => {
        const { runPoll } = await import('./run.js');
        return runPoll(ctx, options);
      }),
    );
};
