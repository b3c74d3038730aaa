import type { AddCommand } from '../wiring.js';

// `agent alert test` has no options of its own (so no options type): the routes are settings (`agent config`).
export const addAlertCommand: AddCommand = (program, action) => {
  const alert = program
    .command('alert')
    .description('the alerts a poll sends when it starts failing, recovers, goes quiet or is paused');
  alert
    .command('test')
    .description('send a test alert through every route set (alert.command, alert.webhook, alert.heartbeat)')
    .addHelpText(
      'after',
      `
Prints what each route answered (exit code, HTTP status, or the error); exit 1 when any failed, 2 when
no route is set. Set them with: agent config set alert.webhook <https URL> (see agent config set --help).
`,
    )
    .action(
      action(async (ctx) => {
        const { runAlertTest } = await import('./run.js');
        return runAlertTest(ctx);
      }),
    );
};
