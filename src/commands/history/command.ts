import type { AddCommand } from '../wiring.js';
import type { HistoryOptions } from './run.js';

export const addHistoryCommand: AddCommand = (program, action) => {
  program
    .command('history')
    .description('what this agent did, newest first: posts, skips and why, failures, each run summed up')
    .option('--since <duration>', 'only this far back: 30m, 12h, 7d')
    .option('--limit <n>', 'at most this many entries (default 50)')
    .action(
      action(async (ctx, options: HistoryOptions) => {
        const { runHistory } = await import('./run.js');
        await runHistory(ctx, options);
      }),
    );
};
