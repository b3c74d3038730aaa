import type { AddCommand } from '../wiring.js';
import type { PredictOptions } from './run.js';

export const addPredictCommand: AddCommand = (program, action) => {
  program
    .command('predict')
    .description("post one prediction on a thread: the analyzer's, or your own with --conviction")
    .argument('<threadId>', 'the thread to predict on')
    .option('--conviction <pct>', 'your predicted % price change over 3 hours, e.g. -1.5 or 0.7%')
    .option('--text <summary>', 'your summary, 20-300 characters (with --conviction)')
    .option('-y, --yes', "post a --conviction beyond your profile's largest size for the cell without asking")
    .option('--dry-run', 'print the decision, post nothing')
    .action(
      action(async (ctx, threadId: string, options: PredictOptions) => {
        const { runPredict } = await import('./run.js');
        await runPredict(ctx, threadId, options);
      }),
    );
};
