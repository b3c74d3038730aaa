import { isFuture } from '../domain/cursor.js';
import type { Thread } from '../domain/thread.js';
import { maskStrings } from '../history/mask.js';
import { appendLines, RecordFileError } from './private-lines.js';
import { isUsablePrice, pricesFile, readAtLine, sampleLine } from './samples.js';
import { recordedThreadLine, threadsFile } from './thread-texts.js';

export interface RecorderDeps {
  dir: string;
  now: () => number;
  /** Masks the key wherever it appears (Output.redact): a thread that quotes it is kept without it. */
  redact: (text: string) => string;
  warn: (message: string) => void;
}

/**
 * Records the threads a run reads, as it reads them, page by page (docs/record.md#the-record-was-it-right): every thread's
 * price (open or locked), and the text of every open one, for `backtest --recorded`. Costs one append per
 * file a page, and nothing at all for a page without new threads. A thread without a usable price adds no
 * sample; one dated ahead of the local clock adds nothing, since its date cannot be trusted to place it.
 * A file that cannot be written is said once and never fails the run.
 */
export class PriceRecorder {
  /** Samples appended this run: a run that added none has nothing new to resolve. */
  recorded = 0;
  private failed = false;

  constructor(private readonly deps: RecorderDeps) {}

  /**
   * `ahead`: these threads were not read by the walk, oldest first, from the cursor (a `predict`, the
   * latest page after a gap): their prices may be used once the walk has passed them, never before.
   */
  page(threads: readonly Thread[], { ahead = false }: { ahead?: boolean } = {}): void {
    if (!threads.length || this.failed) return;
    const now = this.deps.now();
    let prices = '';
    let texts = '';
    let count = 0;
    for (const read of threads) {
      if (isFuture(read, now)) continue;
      // Every string masked on its own, as the history is (history/mask.ts), before it becomes JSON text.
      const thread = maskStrings(read, this.deps.redact);
      const ms = Date.parse(thread.timestamp);
      if (!Number.isFinite(ms)) continue;
      if (isUsablePrice(thread.priceOnFetch)) {
        prices += `${sampleLine({ threadId: thread.id, cell: thread.cell, ms, price: thread.priceOnFetch })}\n`;
        count += 1;
      }
      if (!thread.locked) texts += `${recordedThreadLine(thread, now)}\n`;
    }
    const { dir } = this.deps;
    this.append(() => {
      if (count) appendLines(pricesFile(dir), `${readAtLine(now, ahead)}\n${prices}`);
      if (texts) appendLines(threadsFile(dir), texts);
    });
    if (!this.failed) this.recorded += count;
  }

  private append(write: () => void): void {
    try {
      write();
    } catch (error) {
      this.failed = true;
      const why =
        error instanceof RecordFileError
          ? error.message
          : `${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`;
      this.deps.warn(
        `agent: could not add to the price record in ${this.deps.dir} (${why}); the run goes on without it`,
      );
    }
  }
}
