// An analyzer's stderr, line by line, in bounded memory: a line longer than the cap is cut and the rest
// of it dropped, so a script printing megabytes without a newline cannot eat our memory.

export const STDERR_LINE_CAP = 64 * 1024;

export interface LineSplitter {
  push(text: string): void;
  /** Passes on what is left after the last newline. */
  end(): void;
  /** The last non-blank line seen, for the error message of a failed run. */
  last(): string;
}

export function lineSplitter(onLine: (line: string) => void, cap = STDERR_LINE_CAP): LineSplitter {
  let pending = '';
  let last = '';
  const emit = () => {
    const line = pending.replace(/\r$/, '');
    pending = '';
    if (line.trim() === '') return;
    last = line;
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
    last: () => last,
  };
}
