import type { AddCommand } from '../wiring.js';
import type { StatsOptions } from './run.js';

export const addStatsCommand: AddCommand = (program, action) => {
  program
    .command('stats')
    .description("how the agent is doing: posts, skips by reason, cells, and the service's counters over time")
    .option('--since <duration>', 'how far back: 30m, 12h, 7d (default 7d)')
    .action(
      action(async (ctx, options: StatsOptions) => {
        const { runStats } = await import('./run.js');
        await runStats(ctx, options);
      }),
    );
};
