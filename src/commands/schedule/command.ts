import type { AddCommand } from '../wiring.js';
import type { ScheduleOptions } from './run.js';

export const addScheduleCommand: AddCommand = (program, action) => {
  program
    .command('schedule')
    .description('print, install or remove what runs "agent poll" every few minutes (cron, or systemd with --systemd)')
    .option('--install', 'add the entry (once per config dir, however often it is run)')
    .option('--remove', "take this config dir's entry out, leaving everything else as it was")
    .option('--every <minutes>', 'minutes between polls, 1-59 (default 5)')
    .option('--log <file>', "where cron appends the polls' output (default <config-dir>/poll.log)")
    .option('--systemd', 'a user service and timer instead of a crontab line')
    .action(
      action(async (ctx, options: ScheduleOptions) => {
        const { runSchedule } = await import('./run.js');
        await runSchedule(ctx, options);
      }),
    );
};
