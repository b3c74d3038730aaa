import type { Context } from '../../src/context.js';
import { makeOutput } from './streams.js';
import { fakeTiming } from './timing.js';

/** A context for commands that must not touch the network: its transport fails the test if used. */
export function offlineContext(
  configDir: string,
  options: { env?: Record<string, string>; json?: boolean; verbose?: boolean; stdin?: string } = {},
) {
  const { output, stdout, stderr } = makeOutput({ json: options.json, verbose: options.verbose });
  const ctx: Context = {
    output,
    env: options.env ?? {},
    configDir,
    baseUrl: undefined,
    timing: fakeTiming(),
    pid: 4242,
    transport: () => {
      throw new Error('this command must not open a connection');
    },
    ...(options.stdin !== undefined ? { readStdin: async () => options.stdin! } : {}),
  };
  return { ctx, stdout, stderr };
}
