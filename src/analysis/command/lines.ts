// An analyzer's stderr, line by line, in bounded memory: a line longer than the cap is cut and the rest
// of it dropped, so a script printing megabytes without a newline cannot eat our memory.

export const STDERR_LINE_CAP = 64 * 1024;

/**
 * A line that says what went wrong: an exception by its name (`Error: Cannot find module …`,
 * `ModuleNotFoundError: …`, `TypeError [ERR_…]: …`) or a line that begins with error, fatal or panic.
 */
const ERROR_LINE = /^\s*(?:[\w.$]*(?:Error|Exception)\b\s*(?:\[[^\]]*\])?:|(?:error|fatal|panic)\b)/i;

export interface LineSplitter {
  push(text: string): void;
  /** Passes on what is left after the last newline. */
  end(): void;
  /**
   * The line that says why a run failed: the first that reads as an error, else the last non-blank one.
   * Node ends a crash with its version ("Node.js v20.20.2") and a Python traceback with the error: the
   * first error line is right for both, the last only for the second.
   */
  telling(): string;
}

export function lineSplitter(onLine: (line: string) => void, cap = STDERR_LINE_CAP): LineSplitter {
  let pending = '';
  let last = '';
  let firstError: string | undefined;
  const emit = () => {
    const line = pending.replace(/\r$/, '');
    pending = '';
    if (line.trim() === '') return;
    last = line;
    if (firstError === undefined && ERROR_LINE.test(line)) firstError = line;
    onLine(line);
  };
  return {
    push(text) {
      let start = 0;
      for (;;) {
        const newline = text.indexOf('\n', start);
        const end = newline < 0 ? text.length : newline;
        if (pending.length < cap) pending += text.slice(start, Math.min(end, start + cap - pending.length));
        if (newline < 0) return;
        emit();
        start = newline + 1;
      }
    },
    end: emit,
    telling: () => firstError ?? last,
  };
}
