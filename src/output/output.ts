import { escapeUnsafe, sanitize } from './sanitize.js';
import { maskStrings, SecretMask } from './secret-mask.js';
import type { Line, Painted } from './wrap.js';

export interface WritableLike {
  write(chunk: string): unknown;
  isTTY?: boolean;
  /** A terminal's width, as Node's stream for one reports it. */
  columns?: number;
}

const SGR: Record<Painted['paint'], number> = { red: 31, yellow: 33, cyan: 36 };

export interface OutputOptions {
  stdout: WritableLike;
  stderr: WritableLike;
  json: boolean;
  quiet: boolean;
  verbose: boolean;
  /** NO_COLOR is set (no-color.org): nothing this program draws is coloured. */
  noColor?: boolean;
}

export interface Spinner {
  update(text: string): void;
  stop(): void;
}

/**
 * Where everything the user sees goes: results on stdout, progress and problems on stderr, chatter only on
 * a terminal, exactly one JSON document with --json. Every line passes through `redact`, so a secret that
 * reached a message by mistake is still never printed (key-never-shown).
 */
export class Output {
  readonly json: boolean;
  readonly quiet: boolean;
  readonly verbose: boolean;
  private secrets = new SecretMask();
  private spinnerActive: Spinner | undefined;
  /** JSON Lines: each document on one line (a watcher's stdout is a stream of them). */
  private jsonPerLine = false;
  /** Which of several agents in one process this output speaks for (forAgent). */
  private agent: { label: string; configDir: string } | undefined;

  constructor(private options: OutputOptions) {
    this.json = options.json;
    this.quiet = options.quiet;
    this.verbose = options.verbose;
  }

  /** A person is watching: progress lines and a spinner are welcome. */
  get interactive(): boolean {
    return this.stderrIsTTY && !this.json && !this.quiet;
  }

  get stdoutIsTTY(): boolean {
    return this.options.stdout.isTTY === true;
  }

  get stderrIsTTY(): boolean {
    return this.options.stderr.isTTY === true;
  }

  /** Whether stdout may be drawn in colour: a terminal, and NO_COLOR not set (no-color.org). */
  get colour(): boolean {
    return this.stdoutIsTTY && !this.options.noColor && !this.json;
  }

  /**
   * From now on, what would go to stdout and stderr goes to the sink `open` makes (`poll --log`), given
   * stderr to fall back on; errors reported after the command ends too. Not a terminal: no colour, spinner
   * or progress.
   */
  sendTo(open: (stderr: WritableLike) => WritableLike): void {
    const sink = open(this.options.stderr);
    this.spinnerActive?.stop();
    this.options = { ...this.options, stdout: sink, stderr: sink };
  }

  /**
   * The same output for one of several agents polled by one process (`poll --watch --all`): each stderr
   * line led by `[<label>] `, each JSON document given `"agent": <config dir>` first, so that what a cycle
   * says is known to be that agent's. Secrets are shared: every agent's key is masked in every line.
   */
  forAgent(label: string, configDir: string): Output {
    const other = new Output(this.options);
    other.secrets = this.secrets;
    other.jsonPerLine = this.jsonPerLine;
    other.agent = { label, configDir };
    return other;
  }

  /** Registers a secret: from now on it is printed only in its masked form. */
  addSecret(secret: string): void {
    this.secrets.add(secret);
  }

  redact(text: string): string {
    return this.secrets.redact(text);
  }

  /** From now on every JSON document is one line (JSON Lines): for a command that writes one per cycle. */
  jsonLines(): void {
    this.jsonPerLine = true;
  }

  /** The width of the terminal stdout is, if it is one that reports it. */
  get columns(): number | undefined {
    const columns = this.stdoutIsTTY ? this.options.stdout.columns : undefined;
    return columns !== undefined && columns > 0 ? columns : undefined;
  }

  /**
   * The command's result: human lines, or the JSON document with --json. Every piece is sanitised, so
   * no escape from elsewhere reaches the terminal; painted pieces get their colour after that, here only,
   * and only where colour is allowed.
   */
  result(human: string | readonly Line[], json: unknown): void {
    if (this.json) this.writeOut(jsonText(this.masked(this.tagged(json)), this.jsonPerLine));
    else {
      const lines = typeof human === 'string' ? [human] : human;
      if (lines.length) this.writeOut(`${lines.map((line) => this.draw(line)).join('\n')}\n`);
    }
  }

  private draw(line: Line): string {
    // Several agents in one process: which one a post or a summary is of, at a terminal as in a log.
    const label = this.agent ? `[${sanitize(this.agent.label)}] ` : '';
    return label + this.drawn(line);
  }

  private drawn(line: Line): string {
    if (typeof line === 'string') return sanitize(line);
    return line
      .map((part) => {
        if (typeof part === 'string') return sanitize(part);
        const text = sanitize(part.text);
        return this.colour ? `\u001b[${SGR[part.paint]}m${text}\u001b[39m` : text;
      })
      .join('');
  }

  /** One compact JSON line on stdout, whatever the mode: the answer of the analyzer protocol. */
  jsonLine(value: unknown): void {
    this.writeOut(`${escapeUnsafe(JSON.stringify(this.masked(value)) ?? 'null')}\n`);
  }

  /** Progress for a person at a terminal; nothing under cron, --json or --quiet. */
  progress(message: string): void {
    if (this.interactive || (this.verbose && !this.quiet)) this.writeErr(message);
  }

  /**
   * One line redrawn in place on a terminal's stderr (a progress bar); `undefined` erases it. Nothing
   * without a terminal or with --quiet. Unlike `progress`, --json does not silence it: it never touches
   * stdout, where the one JSON document goes.
   */
  statusLine(text: string | undefined): void {
    if (!this.stderrIsTTY || this.quiet) return;
    this.options.stderr.write(text === undefined ? '\r\u001b[K' : `\r${this.redact(sanitize(text))}\u001b[K`);
  }

  /** Detail asked for with --verbose. */
  detail(message: string): void {
    if (this.verbose && !this.quiet) this.writeErr(message);
  }

  /**
   * The decision trace of a poll: with --verbose at a terminal only. Under cron, --verbose means one
   * summary line a run (docs/cli.md), not a mail of every thread's reasoning.
   */
  pollTrace(line: string): void {
    if (this.stderrIsTTY) this.detail(line);
  }

  /** What a long-running command says once about itself: on stderr, at a terminal or into a log; not with --json or --quiet. */
  say(message: string): void {
    if (!this.json && !this.quiet) this.writeErr(message);
  }

  /** A problem worth reporting even under cron. */
  warn(message: string): void {
    if (!this.quiet) this.writeErr(message);
  }

  /** An error always reaches stderr, even with --quiet. */
  error(message: string): void {
    this.writeErr(message);
  }

  /**
   * The one message that may carry a secret in full, on stderr: a key the service has just issued and
   * that could not be stored exists nowhere else (register). Still stripped of control sequences.
   */
  revealOnce(message: string): void {
    this.spinnerActive?.stop();
    this.options.stderr.write(`${sanitize(message)}\n`);
  }

  /** The raw JSON document on stdout (used for the error document with --json). */
  jsonDocument(value: unknown): void {
    this.writeOut(jsonText(this.masked(this.tagged(value)), this.jsonPerLine));
  }

  /** A document's strings masked one by one before it is written; writeOut's mask of the text stays. */
  private masked(value: unknown): unknown {
    return maskStrings(value, (text) => this.redact(text));
  }

  private tagged(value: unknown): unknown {
    if (!this.agent || typeof value !== 'object' || value === null || Array.isArray(value)) return value;
    return { agent: this.agent.configDir, ...value };
  }

  /** ora is loaded only on a terminal: it costs ~66 ms at start-up and would only add noise under cron. */
  async spinner(text: string): Promise<Spinner> {
    // A terminal that reports no width (a pty nobody sized, as under `script`) sent ora into an endless
    // erase loop at full CPU: no spinner there.
    const columns = (this.options.stderr as { columns?: number }).columns ?? 0;
    if (!this.interactive || !(columns > 0)) return { update() {}, stop() {} };
    const { default: ora } = await import('ora');
    // discardStdin: false: the spinner must not take over stdin (on a terminal that hangs up, ora's
    // discarding of keystrokes was seen spinning at full CPU instead of letting the run end).
    const label = this.agent ? `[${sanitize(this.agent.label)}] ` : '';
    const spinner = ora({
      text: this.redact(label + sanitize(text)),
      stream: this.options.stderr as NodeJS.WritableStream,
      discardStdin: false,
      // The terminal check above is the one that counts: ora's own also turns itself off when CI is set.
      isEnabled: true,
      ...(this.options.noColor ? { color: false as const } : {}),
    }).start();
    const handle: Spinner = {
      update: (next) => {
        spinner.text = this.redact(label + sanitize(next));
      },
      stop: () => {
        spinner.stop();
        if (this.spinnerActive === handle) this.spinnerActive = undefined;
      },
    };
    this.spinnerActive = handle;
    return handle;
  }

  private writeOut(text: string): void {
    this.options.stdout.write(this.redact(text));
  }

  private writeErr(message: string): void {
    this.spinnerActive?.stop();
    const label = this.agent ? `[${this.agent.label}] ` : '';
    this.options.stderr.write(`${label}${this.redact(sanitize(message))}\n`);
  }
}

function jsonText(value: unknown, oneLine = false): string {
  return `${escapeUnsafe(JSON.stringify(value, null, oneLine ? undefined : 2) ?? 'null')}\n`;
}
