// What `agent completion` completes, as script.ts reads it from the program, and what the
// scripts of bash.ts and fish.ts share.

export const SHELLS = ['bash', 'zsh', 'fish'] as const;

export interface OptionSpec {
  long: string | undefined;
  short: string | undefined;
  description: string;
  /** Takes a value (the next word). */
  value: boolean;
  choices?: readonly string[];
  path?: 'file' | 'dir';
  /** Takes the name of an agent made with --agent: a directory of the agents dir. */
  agents?: true;
}

/** What one argument position completes to: fixed words, a path, the commands, or words by the word before. */
export interface ArgumentSpec {
  words?: readonly string[];
  path?: 'file';
  commands?: true;
  /** With `commands`: words offered beside the commands while none is typed yet (`help`'s topics). */
  topics?: readonly string[];
  byPrevious?: Record<string, ArgumentSpec>;
}

export interface CompletionSpec {
  /** The program's names (the package installs it twice). */
  names: string[];
  /**
   * Where the default config dir lies, as env-paths puts it on the platform the script is made on: below
   * `$XDG_CONFIG_HOME` when `xdg` and that is set, else below `$HOME/<home>`.
   */
  configBase: { xdg: boolean; home: string };
  global: OptionSpec[];
  /** Every command, the program itself first (path ''), then `register`, …, `config set`. */
  commands: Array<{
    path: string;
    description: string;
    subcommands: string[];
    options: OptionSpec[];
    args: ArgumentSpec[];
  }>;
}

/** The prefix of every function the scripts define. */
export const FN = '_prediction_agent';

export const flags = (options: OptionSpec[]) =>
  options.flatMap((o) => [o.long, o.short]).filter((flag): flag is string => flag !== undefined);
export const words = (list: readonly string[]) => list.join(' ');

/** The directory of agents made with --agent, below the default config dir's base. */
export const AGENTS_BELOW = 'prediction-agent/agents';
