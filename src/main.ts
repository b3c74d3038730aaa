import { runCli } from './cli.js';
import { UsageError } from './errors.js';
import { stdio } from './output/stdio.js';
import { userNameFromPasswd } from './state/user-names.js';
import type { Transport } from './http/transport.js';

// The only place that touches process globals: argv, env, streams, clock and the exit code.
async function main(): Promise<void> {
  let transport: Transport | undefined;
  const code = await runCli({
    argv: process.argv.slice(2),
    env: process.env,
    // Node's own stdout/stderr streams are built only on a terminal, or when a pipe pushes back.
    stdout: stdio(1, () => process.stdout),
    stderr: stdio(2, () => process.stderr),
    version: process.env.AGENT_BUILD_VERSION ?? '0.0.0',
    // env-paths loads node:os and asks for the home and temp dirs as it loads: only when the default is used.
    defaultConfigDir: async () => (await import('env-paths')).default('prediction-agent', { suffix: '' }).config,
    // Asked only when needed: reading process.stdin builds a stream and loads a dozen modules.
    prompt: { available: () => process.stdin.isTTY === true && process.stderr.isTTY === true, ask },
    context: (base) => ({
      ...base,
      pid: process.pid,
      user: process.getuid ? { uid: process.getuid(), nameOf: userNameFromPasswd } : undefined,
      timing: process.env.AGENT_TEST_FAST_SLEEP === '1' ? fastForwardTiming() : realTiming,
      transport: () => (transport ??= lazyNodeTransport()),
      requestTimeoutMs: testTimeout(process.env.AGENT_TEST_REQUEST_TIMEOUT_MS),
      crashPoint: crashHook(process.env.AGENT_TEST_CRASH_AT),
      readStdin,
      onInterrupt,
      tuneForBatch,
      untilSignal: () =>
        new Promise<string>((resolve) => {
          process.once('SIGINT', () => resolve('SIGINT'));
          process.once('SIGTERM', () => resolve('SIGTERM'));
        }),
    }),
  });
  // No transport.close(): the kept-alive sockets left are unref'd by Node's agent, so they do not hold the
  // process, and destroying them costs ~1 ms of every run (net's destroy builds process.stderr).
  process.exitCode = code;
}

// node:http is loaded on the first request, not at start-up: `--version`, `--help` and usage errors never need it.
function lazyNodeTransport(): Transport {
  let real: Transport | undefined;
  return {
    async send(request) {
      real ??= (await import('./http/node-transport.js')).createNodeTransport();
      return real.send(request);
    },
    close: () => real?.close(),
  };
}

const realTiming = {
  now: () => Date.now(),
  sleep: (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)),
  random: Math.random,
};

// End-to-end tests of rate limits run the real binary: a wait of 60 s passes at once, and the clock
// jumps by as much, so every deadline and stored pause stays consistent. Never set outside tests.
function fastForwardTiming() {
  let skipped = 0;
  return {
    now: () => Date.now() + skipped,
    sleep: async (ms: number) => {
      skipped += ms;
    },
    random: Math.random,
  };
}

/**
 * A poll that found new threads works for a second or so and exits. Over 500 threads (`npm run bench`,
 * Node 20) V8's optimising compiler cost ~6 MB of peak memory on its background threads and saved no
 * time, and the young generation doubled twice for garbage that dies young anyway: without both the run
 * peaks at ~54 MB instead of ~66 MB with the journal check of state/schema.ts, in about the same time
 * (README "Speed"). Not before the first page: a flag set at run time makes Node compile every built-in
 * module it loads afterwards from source instead of from its code cache (+7 ms for node:http), and a run
 * that finds nothing new (or the build's code cache warm-up, which is one) must not pay that or record
 * the changed flags.
 */
async function tuneForBatch(): Promise<void> {
  const { setFlagsFromString } = await import('node:v8');
  setFlagsFromString('--no-turbofan');
  setFlagsFromString('--semi-space-growth-factor=1');
}

function onInterrupt(stop: () => Promise<void>): () => void {
  const handler = (signal: NodeJS.Signals) => {
    undo();
    // A second Ctrl-C while the analyser is being stopped must not kill the agent before it has: the
    // analyser's process group is out of the terminal's reach.
    const wait = () => undefined;
    process.on('SIGINT', wait);
    process.on('SIGTERM', wait);
    void stop().finally(() => {
      process.off('SIGINT', wait);
      process.off('SIGTERM', wait);
      // Then the signal's own ending (exit status 128 + n), as if nothing had been listening.
      process.kill(process.pid, signal);
    });
  };
  const undo = () => {
    process.off('SIGINT', handler);
    process.off('SIGTERM', handler);
  };
  process.once('SIGINT', handler);
  process.once('SIGTERM', handler);
  return undo;
}

async function readStdin(maxBytes: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of process.stdin as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) throw new UsageError(`standard input is larger than ${maxBytes} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

async function ask(question: string): Promise<string> {
  const { createInterface } = await import('node:readline/promises');
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return await rl.question(question);
  } finally {
    rl.close();
  }
}

// Fault-injection tests (test/e2e/crash.test.ts) kill the run at a named point, as a power cut would.
function crashHook(at: string | undefined) {
  return at ? (point: string) => point === at && process.kill(process.pid, 'SIGKILL') : undefined;
}

// End-to-end tests shorten the request timeout so a stalled server fails fast; users never need it.
function testTimeout(raw: string | undefined): number | undefined {
  const n = Number(raw);
  return raw && Number.isFinite(n) && n > 0 ? n : undefined;
}

void main();
