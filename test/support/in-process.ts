import fs from 'node:fs';
import path from 'node:path';
import { runCli } from '../../src/cli.js';
import { runRegister } from '../../src/commands/register/run.js';
import type { Context } from '../../src/context.js';
import { EXIT, type ExitCode } from '../../src/errors.js';
import { createNodeTransport } from '../../src/http/node-transport.js';
import { reportError } from '../../src/output/report-error.js';
import { type Captured, captured, makeOutput } from './streams.js';
import { fakeTiming } from './timing.js';

/**
 * What a command run in-process showed the user: its exit code, and its stdout and stderr as the real
 * run would print them, an error going through the one place that maps it (report-error.ts). gh's
 * `runCommand` with test streams: a failure points at the run function, not at a process.
 */
export async function shown(
  ctx: Context,
  streams: { stdout: Captured; stderr: Captured },
  run: () => Promise<unknown>,
): Promise<{ code: ExitCode; stdout: string; stderr: string }> {
  let code: ExitCode;
  try {
    const returned = await run();
    code = typeof returned === 'number' ? (returned as ExitCode) : EXIT.ok;
  } catch (error) {
    code = reportError(error, ctx.output);
  }
  return { code, stdout: streams.stdout.text, stderr: streams.stderr.text };
}

/** A config dir as `register` leaves it (mode 700, state.json mode 600), without a service to register with. */
export function registeredDir(
  dir: string,
  state: { apiKey?: string; agentName?: string; baseUrl?: string } = {},
): { dir: string; apiKey: string } {
  const apiKey = state.apiKey ?? `hive_${'Test0Key'.repeat(5)}`;
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  fs.writeFileSync(
    path.join(dir, 'state.json'),
    JSON.stringify({
      version: 1,
      apiKey,
      agentName: state.agentName ?? 'in-process',
      cursor: null,
      baseUrl: state.baseUrl ?? 'http://127.0.0.1:9',
    }),
    { mode: 0o600 },
  );
  return { dir, apiKey };
}

/**
 * A context that talks to a loopback service (a sandbox) over the real transport, on this machine's clock
 * (the service dates its answers by it); `run` gives what the command showed, and closes the transport.
 */
export function onlineContext(
  configDir: string,
  baseUrl: string | undefined,
  options: { json?: boolean; verbose?: boolean; env?: Record<string, string> } = {},
) {
  const { output, stdout, stderr } = makeOutput(options);
  const transport = createNodeTransport();
  const ctx: Context = {
    output,
    env: options.env ?? {},
    configDir,
    baseUrl,
    timing: { now: () => Date.now(), sleep: async () => {}, random: () => 0.5 },
    pid: process.pid,
    transport: () => transport,
    requestTimeoutMs: 2_000,
  };
  const run = (work: () => Promise<unknown>) => shown(ctx, { stdout, stderr }, work).finally(() => transport.close());
  return { ctx, stdout, stderr, run };
}

/** Registers `name` with the service at `baseUrl` into `configDir`, as `agent register` does; returns the key. */
export async function registerWith(baseUrl: string, configDir: string, name = 'in-process'): Promise<string> {
  const { ctx, run } = onlineContext(configDir, baseUrl);
  const registered = await run(() =>
    runRegister(ctx, {
      name,
      signalMethod: 'onchain',
      convictionStyle: 'moderate',
      directionalBias: 'neutral',
      participation: 'active',
    }),
  );
  if (registered.code !== EXIT.ok) throw new Error(`register failed: ${registered.stderr}`);
  return JSON.parse(fs.readFileSync(path.join(configDir, 'state.json'), 'utf8')).apiKey;
}

/**
 * The whole command line in-process (runCli, as bin/ calls it, with test streams), for what needs the
 * program itself: help, completion, commander's usage errors. Offline: a connection fails the test.
 */
export async function cli(
  argv: string[],
  configDir: string,
): Promise<{ code: ExitCode; stdout: string; stderr: string }> {
  const stdout = captured();
  const stderr = captured();
  const code = await runCli({
    argv,
    env: {},
    stdout,
    stderr,
    version: '0.0.0-test',
    defaultConfigDir: async () => configDir,
    context: (base) => ({
      ...base,
      timing: fakeTiming(),
      pid: 4242,
      transport: () => {
        throw new Error('this command must not open a connection');
      },
    }),
  });
  return { code, stdout: stdout.text, stderr: stderr.text };
}
