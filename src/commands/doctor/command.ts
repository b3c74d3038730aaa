import type { AddCommand } from '../wiring.js';

export const addDoctorCommand: AddCommand = (program, action) => {
  program
    .command('doctor')
    .description('check what a poll from cron needs, one line each with the fix (exit 1 when something fails)')
    .action(
      action(async (ctx) => {
        const { runDoctor } = await import('./run.js');
        return runDoctor(ctx);
      }),
    );
};
