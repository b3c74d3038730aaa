import path from 'node:path';
import { UsageError } from '../errors.js';

/**
 * `--agent <name>`: a short form for the config dir `<default config dir>/agents/<name>`. The name becomes
 * a directory name and is printed bare in hints, so it is kept to what needs no quoting anywhere: letters,
 * digits, `-` and `_`, starting with a letter or digit (never `.`, `..` or an option-like `-x`).
 */
const AGENT_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,31}$/;

/** Where the agents named with --agent live, below the default config dir. */
export const AGENTS_DIR = 'agents';

export function agentDir(defaultConfigDir: string, name: string): string {
  if (!AGENT_NAME.test(name)) {
    throw new UsageError(`--agent takes a name of 1-32 letters, digits, "-" or "_" (got ${JSON.stringify(name)})`, {
      hint: 'it names the directory agents/<name> in the default config dir',
    });
  }
  return path.join(defaultConfigDir, AGENTS_DIR, name);
}
