import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { profileFlags, type ProfileOptions } from '../wiring.js';

/** The flags as commander gives them; checked here. */
export interface BacktestOptions extends ProfileOptions {
  analyzer?: string;
  recorded?: boolean;
  since?: string;
}

/** `agent backtest <file>`, or `--recorded`: the threads this agent read (docs/cli.md `backtest`). */
export async function runBacktest(ctx: Context, file: string | undefined, options: BacktestOptions): Promise<void> {
  const chosen = { ...profileFlags(options), analyzer: options.analyzer };
  if (options.recorded) {
    if (file !== undefined) throw new UsageError('give a file or --recorded, not both');
    const { backtestRecorded } = await import('./recorded.js');
    return backtestRecorded({ ...chosen, since: options.since }, ctx);
  }
  if (file === undefined)
    throw new UsageError('missing the file to replay', { hint: 'or --recorded: the threads this agent read' });
  if (options.since !== undefined) throw new UsageError('--since goes with --recorded');
  const { backtestConfigured } = await import('./measure.js');
  await backtestConfigured(file, chosen, ctx);
}
