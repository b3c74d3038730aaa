import { Option } from 'commander';
import { ANALYZER_KINDS } from '../analysis/types.js';
import type { AddCommand } from './wiring.js';
import { profileFlags, profileOptions } from './wiring.js';

export const addBacktestCommand: AddCommand = (program, action) => {
  profileOptions(
    program
      .command('backtest')
      .description(
        'replay resolved threads from a file through an analyzer: coverage, accuracy, MAE, honey/wax per cell',
      )
      .argument('<file>', 'JSON: an array of resolved threads or {"threads": [...]} (README "Backtest")')
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
      action(async (ctx, file: string, options: Parameters<typeof profileFlags>[0] & { analyzer?: string }) => {
        const { backtestConfigured } = await import('../backtest/backtest-command.js');
        await backtestConfigured(file, { ...profileFlags(options), analyzer: options.analyzer }, ctx);
      }),
    );
};
