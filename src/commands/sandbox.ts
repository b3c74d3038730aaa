import type { AddCommand } from './wiring.js';

export const addSandboxCommand: AddCommand = (program, action) => {
  program
    .command('sandbox')
    .description('serve a local sandbox of the service (threads, locking, scoring) for trying agents offline')
    .option('--port <n>', 'port to listen on; 0 or none: a free port')
    .option('--host <addr>', 'address to listen on (default 127.0.0.1)')
    .option('--seed <n>', 'seed of the thread feed, for a reproducible run')
    .option('--speed <x>', 'sandbox clock speed: 60 resolves a 3-hour thread in 3 minutes')
    .option('--rate <threads/min>', 'new threads per minute of sandbox time')
    .option('--rate-limit <requests/min>', 'answer 429 beyond this many requests a minute per key (0: off)')
    .option('--state <file>', 'keep the sandbox state in this file across restarts')
    .option(
      '--export <file>',
      'write the resolved threads to this file (for agent backtest) and exit instead of serving',
    )
    .option('--history <hours>', 'with --export: run the feed this many hours of sandbox time first (default 0)')
    .action(
      action(async (ctx, options: Record<string, string | undefined>) => {
        const { runSandbox } = await import('../sandbox/serve-command.js');
        await runSandbox(options, ctx);
      }),
    );
};
