import { SANDBOX_CLI_DEFAULTS as D } from '../../sandbox/defaults.js';
import type { AddCommand } from '../wiring.js';
import type { SandboxOptions } from './run.js';

export const addSandboxCommand: AddCommand = (program, action) => {
  program
    .command('sandbox')
    .description('serve a local sandbox of the service (threads, locking, scoring) for trying agents offline')
    .option('--port <n>', `port to listen on (default ${D.port}: a free port)`)
    .option('--host <addr>', `address to listen on (default ${D.host})`)
    .option('--seed <n>', `seed of the thread feed, for a reproducible run (default ${D.seed})`)
    .option(
      '--speed <x>',
      `sandbox clock speed: 60 resolves a 3-hour thread in 3 minutes (default ${D.speed}: real time)`,
    )
    .option('--rate <threads/min>', `new threads per minute of sandbox time (default ${D.ratePerMinute})`)
    .option(
      '--rate-limit <requests/min>',
      `answer 429 beyond this many requests a minute per key (${D.rateLimit}: off, the default)`,
    )
    .option(
      '--state <file>',
      'keep the sandbox state in this file across restarts (default: none, the state lives in memory and is gone when the sandbox stops)',
    )
    .option('--start <time>', 'start the sandbox clock at this ISO 8601 time, or this long ago (e.g. 4h); default now')
    .option(
      '--export <file>',
      'write the resolved threads to this file (for agent backtest) and exit instead of serving',
    )
    .option('--history <hours>', 'with --export: run the feed this many hours of sandbox time first (default 0)')
    .action(
      action(async (ctx, options: SandboxOptions) => {
        const { runSandbox } = await import('./run.js');
        await runSandbox(ctx, options);
      }),
    );
};
