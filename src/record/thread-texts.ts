// The open threads a run read, text and all, as `backtest --recorded` replays them: in the interface's
// field names, so that they parse like the threads of a backtest file. Bounded like the history, since a
// text is a few hundred bytes and a busy feed brings thousands a week.
import type { Thread } from '../domain/thread.js';
import { lineFile, type LineFile } from './private-lines.js';

export const THREADS_LIMIT_BYTES = 4 * 1024 * 1024;

export function threadsFile(dir: string): LineFile {
  return lineFile(dir, 'threads', THREADS_LIMIT_BYTES);
}

export function recordedThreadLine(thread: Thread, readAt: number): string {
  return JSON.stringify({
    readAt: new Date(readAt).toISOString(),
    id: thread.id,
    project_id: thread.projectId,
    timestamp: thread.timestamp,
    text: thread.text,
    price_on_fetch: thread.priceOnFetch ?? null,
    citations: thread.citations,
  });
}
