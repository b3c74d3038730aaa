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
