import { Option } from 'commander';
import { ANALYZER_KINDS } from '../../analysis/types.js';
import { type AddCommand, profileOptions } from '../wiring.js';
import type { BacktestOptions } from './run.js';

export const addBacktestCommand: AddCommand = (program, action) => {
  profileOptions(
    program
      .command('backtest')
      .description(
        'replay resolved threads from a file, or the ones this agent recorded, through an analyzer: coverage, accuracy, MAE, honey/wax per cell',
      )
      .argument('[file]', 'JSON: an array of resolved threads or {"threads": [...]} (docs/backtest.md)')
      .option(
        '--recorded',
        'replay the threads this agent read, against their recorded 3-hour moves (docs/record.md#the-record-was-it-right)',
      )
      .option('--since <duration>', 'with --recorded: threads recorded this far back, e.g. 7d (default 30d)')
      .addOption(
        new Option(
          '--analyzer <kind>',
          'the analyzer to measure (default: the configured one; never its fallback)',
        ).choices(ANALYZER_KINDS),
      ),
  )
    .addHelpText(
      'after',
      "\nProfile: the registered agent's, each flag overriding its field; with no agent registered here:\n  --signal-method sentiment --conviction-style moderate --directional-bias neutral --participation moderate\n",
    )
    .action(
      action(async (ctx, file: string | undefined, options: BacktestOptions) => {
        const { runBacktest } = await import('./run.js');
        await runBacktest(ctx, file, options);
      }),
    );
};
