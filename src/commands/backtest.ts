import { Option } from 'commander';
import { ANALYZER_KINDS } from '../analysis/types.js';
import { UsageError } from '../errors.js';
import type { AddCommand } from './wiring.js';
import { profileFlags, profileOptions } from './wiring.js';

export const addBacktestCommand: AddCommand = (program, action) => {
  profileOptions(
    program
      .command('backtest')
      .description(
        'replay resolved threads from a file, or the ones this agent recorded, through an analyzer: coverage, accuracy, MAE, honey/wax per cell',
      )
      .argument('[file]', 'JSON: an array of resolved threads or {"threads": [...]} (README "Backtest")')
      .option(
        '--recorded',
        'replay the threads this agent read, against their recorded 3-hour moves (README "The record")',
      )
      .option('--since <duration>', 'with --recorded: threads from this far back, e.g. 7d (default 30d)')
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
      action(
        async (
          ctx,
          file: string | undefined,
          options: Parameters<typeof profileFlags>[0] & { analyzer?: string; recorded?: boolean; since?: string },
        ) => {
          const chosen = { ...profileFlags(options), analyzer: options.analyzer };
          if (options.recorded) {
            if (file !== undefined) throw new UsageError('give a file or --recorded, not both');
            const { backtestRecorded } = await import('../record/recorded-backtest-command.js');
            return backtestRecorded({ ...chosen, since: options.since }, ctx);
          }
          if (file === undefined)
            throw new UsageError('missing the file to replay', { hint: 'or --recorded: the threads this agent read' });
          if (options.since !== undefined) throw new UsageError('--since goes with --recorded');
          const { backtestConfigured } = await import('../backtest/backtest-command.js');
          await backtestConfigured(file, chosen, ctx);
        },
      ),
    );
};
