import { Option } from 'commander';
import { ANALYZER_KINDS } from '../../analysis/types.js';
import type { AddCommand } from '../wiring.js';
import type { AnalyzeOptions } from './run.js';

export const addAnalyzeCommand: AddCommand = (program, action) => {
  program
    .command('analyze')
    .description('the decision on a thread and the whole trace, posting nothing; --stdin: the analyzer protocol')
    .argument('[threadId]', 'the thread to analyze')
    .addOption(new Option('--analyzer <kind>', 'this run only (default: the configured one)').choices(ANALYZER_KINDS))
    .option(
      '--stdin',
      'read one protocol object on stdin, print the decision as one JSON line (built-in analyzer unless --analyzer)',
    )
    .action(
      action(async (ctx, threadId: string | undefined, options: AnalyzeOptions) => {
        const { runAnalyze } = await import('./run.js');
        await runAnalyze(ctx, threadId, options);
      }),
    );
};
