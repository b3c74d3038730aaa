import type { Context } from '../context.js';
import { analyzerDeadline, maySlowAnalyze } from '../domain/budget.js';
import { ANALYSIS_CONCURRENCY } from '../analysis/concurrency.js';
import type { Analyzer } from '../analysis/types.js';
import type { Profile } from '../domain/profile.js';
import type { Thread } from '../domain/thread.js';
import { BudgetError, CancelledError, messageOf } from '../errors.js';
import type { Spinner } from '../output/output.js';
import type { ServiceApi } from '../service/api.js';
import type { ToPost } from '../posting/outcome.js';
import { postOnce } from '../posting/post-once.js';
import type { PostingJournal } from '../posting/post-once.js';
import { prepareThread } from './prepare-thread.js';
import { typicalMoves, withTypicalMove } from '../record/run-hooks.js';
import type { PollLedger } from './ledger.js';

/** Threads marked "posting" by one durable write and then posted side by side. */
const POST_BATCH = 8;

export interface HandlerDeps {
  api: ServiceApi;
  ledger: PollLedger;
  deadline: number;
  /** Kept out of an external analyzer's environment. */
  secrets: string[];
  dryRun: boolean;
  /** Where postOnce writes the "posting" marks before their POSTs leave (never-twice). */
  journal: PostingJournal;
  ctx: Context;
  spinner: Spinner;
  /** A watcher was asked to stop: the threads not started yet stay due for the next run. */
  shouldStop?: (() => boolean) | undefined;
}

export interface ThreadHandler {
  /** Analyzes each thread in the order given and posts in batches; never throws for one thread's failure. */
  handle(threads: Thread[]): Promise<void>;
  close(): Promise<void>;
}

/**
 * Handles the threads of a run, page after page. The analyzer is loaded for the first open thread and
 * kept for the rest of the run: it (a lexicon of compiled patterns, or a model) is not paid for by runs
 * that find nothing new (docs/performance.md), nor again on every page of a backlog.
 */
export function threadHandler(deps: HandlerDeps): ThreadHandler {
  const { api, ledger, dryRun, ctx, spinner, deadline } = deps;
  // The reasoning is what a dry run is for; under cron it would be a mail per thread. Threads are read
  // side by side, so each line names its thread.
  const show = (threadId: string, line: string) =>
    dryRun ? ctx.output.detail(`  ${threadId}: ${line}`) : ctx.output.pollTrace(`  ${threadId}: ${line}`);
  const onStderr = (line: string, threadId: string) => show(threadId, `analyzer stderr: ${line}`);
  let loaded:
    | {
        analyzer: Analyzer;
        profile: Profile;
        slow: boolean;
        timeoutMs: number;
        typical: ReturnType<typeof typicalMoves>;
        keys: string[];
      }
    | undefined;
  // Only for the first open thread: pages of locked history after a long gap need neither.
  const load = async () => {
    const { loadAnalyzer } = await import('../analysis/load.js');
    const profile = await api.profile();
    const { analyzer, config, keys } = await loadAnalyzer(ctx, {
      secrets: deps.secrets,
      deadline: analyzerDeadline(deadline),
      onStderr,
    });
    // A slow analyzer (a command, a model) reads a few threads side by side, and their posts leave as soon
    // as they are read: the built-in one is fast enough to fill whole batches first.
    // Posts are sized by each cell's typical move: measured from the recorded prices where there are enough.
    return {
      analyzer,
      profile,
      slow: config.kind !== 'builtin',
      timeoutMs: config.timeoutMs,
      typical: typicalMoves(ctx),
      keys,
    };
  };

  let batch: Array<{ thread: Thread; tries: number; post: ToPost }> = [];
  // One durable write marks a whole batch "posting" before any of its POSTs leaves (posting/post-once.ts).
  // A crash mid-batch leaves at most a batch "unknown" (never posted again).
  const flush = async () => {
    const sending = batch;
    batch = [];
    if (sending.length) spinner.update(`Posting ${sending.length} prediction(s)…`);
    for (const { thread, tries, outcome } of await postOnce(sending, {
      api,
      journal: deps.journal,
      crashPoint: ctx.crashPoint,
    })) {
      ledger.apply(outcome, thread, tries);
    }
  };

  return {
    async handle(threads) {
      if (!loaded && threads.some((thread) => !thread.locked)) loaded = await load();
      const { analyzer, profile, slow = false, timeoutMs = 0, typical, keys = deps.secrets } = loaded ?? {};
      const width = slow ? ANALYSIS_CONCURRENCY : 1;
      for (let i = 0; i < threads.length; i += width) {
        const chunk = threads.slice(i, i + width);
        // An analyzer that may take its whole timeout is not started when the run could not wait for it (bounded).
        // Its posts then need time too: one sent with seconds left could time out after leaving, and be lost.
        if (!ledger.stop && slow && !maySlowAnalyze(deadline, ctx.timing.now(), timeoutMs))
          ledger.stop = new BudgetError();
        if (!ledger.stop && deps.shouldStop?.())
          ledger.stop = new CancelledError('stopped by a signal; the rest stays due');
        if (ledger.stop) {
          for (const thread of chunk) ledger.leaveDue(thread);
          continue;
        }
        const [single] = chunk;
        spinner.update(
          chunk.length === 1 && single
            ? `Thread ${single.id} (${single.projectId})…`
            : `Analyzing ${chunk.length} threads…`,
        );
        const prepared = await Promise.all(
          chunk.map(async (thread) => ({
            thread,
            outcome: await prepareThread(withTypicalMove(thread, typical), ledger.journal.get(thread.id), {
              analyzer,
              profile,
              dryRun,
              keys,
              trace: (line) => show(thread.id, line),
            }),
          })),
        );
        for (const { thread, outcome } of prepared) {
          const tries = ledger.tries(thread);
          if (outcome.kind === 'post') batch.push({ thread, tries, post: outcome });
          else ledger.apply(outcome, thread, tries);
        }
        if (batch.length >= POST_BATCH || (slow && batch.length)) await flush();
      }
      await flush();
    },
    // The state must still be saved after this: a close that fails is reported, not thrown.
    close: async () =>
      loaded?.analyzer
        .close?.()
        .catch((error: unknown) => ctx.output.warn(`agent: stopping the analyzer failed: ${messageOf(error)}`)),
  };
}
