import type { AddCommand } from './wiring.js';

export const addPollCommand: AddCommand = (program, action) => {
  program
    .command('poll')
    .description('one polling cycle: fetch new threads, analyze, post or skip, save the cursor (what cron runs)')
    .option('--limit <n>', 'threads per page (default 50)')
    .option('--dry-run', 'analyze and print decisions, post nothing, change no state')
    .action(
      action(async (ctx, options: { limit?: string; dryRun?: boolean }) => {
        const { runPoll } = await import('../poll/run.js');
        return runPoll(options, ctx);
      }),
    );
};
