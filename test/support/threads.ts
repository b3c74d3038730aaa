import type { Thread } from '../../src/domain/thread.js';
import type { ThreadPage } from '../../src/service/api.js';

export function thread(id: string, timestamp: string, overrides: Partial<Thread> = {}): Thread {
  return {
    id,
    projectId: 'c/bitcoin',
    cell: 'bitcoin',
    text: 'Bullish on c/bitcoin: ETF inflows surge, breakout above resistance.',
    timestamp,
    locked: false,
    citations: [],
    ...overrides,
  };
}

/** A page as the service api returns it, holding these threads. */
export function page(threads: Thread[], extra: Partial<ThreadPage> = {}): ThreadPage {
  return { threads, malformed: [], undated: [], unidentifiable: 0, size: threads.length, ...extra };
}

/** Wire form (docs/service.md#thread-list) of a thread. */
export function wireThread(id: string | number, timestamp: string, overrides: Record<string, unknown> = {}) {
  return {
    id,
    pollen_id: `p-${id}`,
    project_id: 'c/bitcoin',
    text: 'Bullish on c/bitcoin: ETF inflows surge.',
    timestamp,
    locked: false,
    price_on_fetch: 64000.5,
    citations: [{ url: 'https://news.example/a', title: 'A' }],
    ...overrides,
  };
}
