import { spawn } from 'node:child_process';
import { BIN, collected, type RunResult } from './harness.js';

/**
 * Runs a command line the agent printed (`agent --config-dir '/a b' schedule --install`) as a user who
 * pastes it into a shell would: /bin/sh reads it, with `agent` this build.
 */
export function runPrinted(line: string, env: Record<string, string>): Promise<RunResult> {
  return collected(
    spawn('/bin/sh', ['-c', `agent() { "$AGENT_NODE" "$AGENT_BIN" "$@"; }; ${line}`], {
      env: { PATH: '/usr/bin:/bin', ...env, AGENT_NODE: process.execPath, AGENT_BIN: BIN },
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
}

/** The commands a message names between double quotes, or after "Next: " to its end. */
export function commandsIn(text: string): string[] {
  return [...text.matchAll(/"(agent [^"]+)"|Next: (agent .+)$/gm)].map((m) => (m[1] ?? m[2])!);
}
