// A sample is one thread's price_on_fetch, placed by the thread's own timestamp (never the local clock):
// the price of its cell when the service created the thread. The prices file holds one line per sample,
// and before each batch a line saying when it was read, so that a reader after the last hours can stop
// where the batches become older than those hours (private-lines.ts reads it backwards). A batch read
// ahead of the poll's walk (a `predict` by hand, a poll's look at the latest page) says so: the walk reads
// the feed oldest first, so only its own batches tell how far every price has been read (WalkedSamples).
import { lineFile, type LineFile } from './private-lines.js';

export interface Sample {
  threadId: string;
  cell: string;
  /** Epoch ms of the thread's timestamp. */
  ms: number;
  price: number;
}

/** About 90 bytes a sample: two files of 2 MiB hold ~45,000 prices, a week or more of a busy feed. */
export const PRICES_LIMIT_BYTES = 2 * 1024 * 1024;

export function pricesFile(dir: string): LineFile {
  return lineFile(dir, 'prices', PRICES_LIMIT_BYTES);
}

/** A price worth keeping: a positive finite number, below what no market has ever been worth. */
export function isUsablePrice(price: unknown): price is number {
  return typeof price === 'number' && Number.isFinite(price) && price > 0 && price < 1e16;
}

export function sampleLine(sample: Sample): string {
  return JSON.stringify({
    id: sample.threadId,
    cell: sample.cell,
    ts: new Date(sample.ms).toISOString(),
    price: sample.price,
  });
}

export function readAtLine(ms: number, ahead = false): string {
  return JSON.stringify({ readAt: new Date(ms).toISOString(), ...(ahead ? { ahead: true } : {}) });
}

export type PriceLine = { kind: 'sample'; sample: Sample } | { kind: 'readAt'; ms: number; ahead: boolean };

/** One line of the prices file, checked field by field; undefined for anything else (skipped, never fatal). */
export function parsePriceLine(line: string): PriceLine | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const v = value as Record<string, unknown>;
  if (typeof v.readAt === 'string') {
    const ms = Date.parse(v.readAt);
    return Number.isFinite(ms) ? { kind: 'readAt', ms, ahead: v.ahead === true } : undefined;
  }
  if (typeof v.id !== 'string' || typeof v.cell !== 'string' || typeof v.ts !== 'string') return undefined;
  const ms = Date.parse(v.ts);
  if (!Number.isFinite(ms) || !isUsablePrice(v.price)) return undefined;
  return { kind: 'sample', sample: { threadId: v.id, cell: v.cell, ms, price: v.price } };
}

/**
 * The samples of price lines given newest first (readLinesBackward), and how far the walk has read: the
 * newest thread time of a batch the walk itself read. Every price up to there is recorded; one beyond it
 * may still have others before it that the walk has not reached, so it never settles anything.
 */
export class WalkedSamples {
  /** Newest first, as given. */
  readonly samples: Sample[] = [];
  walkedMs = Number.NEGATIVE_INFINITY;
  private batchNewestMs = Number.NEGATIVE_INFINITY;

  take(line: PriceLine | undefined): void {
    if (line?.kind === 'sample') {
      this.samples.push(line.sample);
      this.batchNewestMs = Math.max(this.batchNewestMs, line.sample.ms);
    } else if (line?.kind === 'readAt') {
      // A batch's samples follow its readAt line: read backwards, they came first.
      if (!line.ahead) this.walkedMs = Math.max(this.walkedMs, this.batchNewestMs);
      this.batchNewestMs = Number.NEGATIVE_INFINITY;
    }
  }
}
