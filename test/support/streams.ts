import { Output } from '../../src/output/output.js';

export interface Captured {
  text: string;
  isTTY?: boolean;
  write(chunk: string): boolean;
}

export function captured(isTTY = false): Captured {
  return {
    text: '',
    isTTY,
    write(chunk: string) {
      this.text += chunk;
      return true;
    },
  };
}

export function makeOutput(
  options: {
    json?: boolean;
    quiet?: boolean;
    verbose?: boolean;
    stdoutTTY?: boolean;
    stderrTTY?: boolean;
    noColor?: boolean;
  } = {},
) {
  const stdout = captured(options.stdoutTTY ?? false);
  const stderr = captured(options.stderrTTY ?? false);
  const output = new Output({
    stdout,
    stderr,
    json: !!options.json,
    quiet: !!options.quiet,
    verbose: !!options.verbose,
    noColor: options.noColor,
  });
  return { output, stdout, stderr };
}
