import { COMMAND_BUDGET_MS, KILL_GRACE_MS, openSession, POST_RESERVE_MS, rateLimitedUntil, stateStore, type Context } from '../context.js';
import { LIMITS, type Profile } from '../domain/profile.js';
import type { Thread } from '../domain/thread.js';
import { BudgetError, BusyError, EXIT, RateLimitedError, UsageError, type ExitCode } from '../errors.js';
import type { Spinner } from '../output/output.js';
import { compareKey } from '../poll/cursor.js';
import { fetchNewThreads } from '../poll/fetch-new.js';
import type { ToPost } from '../poll/handle-thread.js';
import { isHandled, pruneJournal } from '../poll/journal.js';
import { PollLedger } from '../poll/ledger.js';
import { renderPoll } from '../poll/report.js';
import type { ServiceApi } from '../service/api.js';
import { acquireLock } from '../state/lock.js';
import type { State } from '../state/schema.js';

export interface PollOptions {
  limit?: string;
  dryRun?: boolean;
}

/** Threads marked "posting" by one durable write and then posted side by side. */
const POST_BATCH = 8;
/** Threads a command or model analyser reads at once: a local model server queues more than this. */
const ANALYSIS_CONCURRENCY = 4;

/** One polling cycle: state → new threads → analysis → predictions → state (cli.md `poll`). */
export async function runPoll(options: PollOptions, ctx: Context): Promise<ExitCode> {
  const limit = parseLimit(options.limit);
  const dryRun = options.dryRun === true;
  const started = ctx.timing.now();
  // A dry run changes nothing, so it takes no lock and is never turned away by one.
  let lock;
  try {
    lock = dryRun ? undefined : acquireLock({ dir: stateStore(ctx).dir, pid: ctx.pid, now: started });
  } catch (error) {
    if (!(error instanceof BusyError)) throw error;
    // Overlapping cron runs are normal (R6): the running one does the work; this one is quietly done.
    const empty = { posted: [], skipped: [], failed: [], cursor: stateStore(ctx).read()?.cursor ?? null };
    renderPoll(empty, ctx.output, { dryRun, elapsedMs: 0, note: error.message });
    return EXIT.ok;
  }
  try {
    return await pollOnce(limit, dryRun, started, ctx);
  } finally {
    lock?.release();
  }
}

async function pollOnce(limit: number, dryRun: boolean, started: number, ctx: Context): Promise<ExitCode> {
  const session = openSession(ctx, { deadline: started + COMMAND_BUDGET_MS });
  const { api, store, state } = session;
  const blocked = rateLimitedUntil(state);
  if (blocked !== undefined && blocked > started) {
    // The service asked for a pause (R5): this run sends nothing at all.
    const note = `rate limited until ${state.rateLimitedUntil}: nothing sent this run`;
    renderPoll({ posted: [], skipped: [], failed: [], cursor: state.cursor }, ctx.output, { dryRun, elapsedMs: 0, note });
    return EXIT.ok;
  }
  const ledger = new PollLedger(state);
  const save = (extra: Partial<State> = {}) => {
    if (!dryRun) store.write({ ...state, journal: ledger.journal, ...extra });
  };

  const spinner = await ctx.output.spinner('Fetching new threads…');
  try {
    // The run has work ahead: from here on it is tuned for it (main.ts says how and why not earlier).
    const fresh = await fetchNewThreads(api, state.cursor, limit, async () => ctx.tuneForBatch?.());
    if (fresh.unidentifiable) ctx.output.warn(`agent: ${fresh.unidentifiable} thread(s) in the list had no usable id or timestamp and were ignored`);
    for (const bad of fresh.malformed) ledger.malformed(bad);
    // Newest first: an early prediction earns more, and the oldest have lost most of their bonus anyway.
    const threads = fresh.threads.sort((a, b) => compareKey(b, a));
    const todo = threads.filter((t) => !isHandled(ledger.journal[t.id]));
    threads.filter((t) => isHandled(ledger.journal[t.id])).forEach((t) => ledger.alreadyHandled(t));
    if (todo.length) await handleThreads(todo, ledger, { api, dryRun, save, ctx, spinner, deadline: started + COMMAND_BUDGET_MS, secrets: [state.apiKey] });
  } catch (error) {
    spinner.stop();
    if (error instanceof RateLimitedError) save({ rateLimitedUntil: new Date(error.until).toISOString() });
    throw error;
  }
  spinner.stop();

  const cursor = ledger.cursor();
  const blockedAfter = session.http.blockedUntil;
  const final: State = {
    ...state,
    cursor,
    journal: pruneJournal(ledger.journal, cursor, ctx.timing.now()),
    rateLimitedUntil: blockedAfter !== undefined && blockedAfter > ctx.timing.now() ? new Date(blockedAfter).toISOString() : undefined,
  };
  // Most runs change nothing: no write, no fsync, 288 times a day.
  if (!dryRun && JSON.stringify(final) !== JSON.stringify(state)) store.write(final);
  // On a stop the one JSON document is the error's, so the report shows only to a person.
  if (!ledger.stop || !ctx.output.json) renderPoll(ledger.report, ctx.output, { dryRun, elapsedMs: ctx.timing.now() - started });
  if (ledger.stop) throw ledger.stop;
  return ledger.exitCode;
}

interface HandleDeps {
  api: ServiceApi;
  deadline: number;
  /** Kept out of an external analyser's environment. */
  secrets: string[];
  dryRun: boolean;
  save: () => void;
  ctx: Context;
  spinner: Spinner;
}

/**
 * Analyses each thread, newest first, and posts in batches: one durable write marks a whole batch
 * "posting" before any of its POSTs leaves (R2), then they are sent side by side. A crash mid-batch
 * leaves at most a batch "unknown" (never posted again); 500 threads cost 60 fsyncs, not 500.
 */
async function handleThreads(todo: Thread[], ledger: PollLedger, { api, dryRun, save, ctx, spinner, deadline, secrets }: HandleDeps): Promise<void> {
  // The analysis (a lexicon of compiled patterns) loads only when there is a thread to handle: most
  // cron runs find nothing new and should not pay for it (performance.md).
  const { prepareThread, postPrediction } = await import('../poll/handle-thread.js');
  const { loadAnalyser } = await import('./analyser.js');
  const open = todo.filter((t) => !t.locked);
  const profile = open.length ? await api.profile() : undefined;
  // The reasoning is what a dry run is for; under cron it would be a mail per thread. Threads are read
  // side by side, so each line names its thread.
  const show = (threadId: string, line: string) => (dryRun ? ctx.output.detail(`  ${threadId}: ${line}`) : ctx.output.pollTrace(`  ${threadId}: ${line}`));
  const onStderr = (line: string, threadId: string) => show(threadId, `analyser stderr: ${line}`);
  const loaded = open.length ? await loadAnalyser(ctx, { secrets, deadline: deadline - POST_RESERVE_MS, onStderr }) : undefined;
  const analyser = loaded?.analyser;
  const config = loaded?.config;
  // A slow analyser (a command, a model) reads a few threads side by side, and their posts leave as soon
  // as they are read: the built-in one is fast enough to fill whole batches first.
  const slow = config !== undefined && config.kind !== 'builtin';
  const width = slow ? ANALYSIS_CONCURRENCY : 1;
  let batch: Array<{ thread: Thread; tries: number; post: ToPost }> = [];
  const flush = async () => {
    const sending = batch;
    batch = [];
    if (!sending.length) return;
    for (const { thread, tries } of sending) ledger.posting(thread, tries);
    save();
    ctx.crashPoint?.('before-post');
    spinner.update(`Posting ${sending.length} prediction(s)…`);
    const outcomes = await Promise.all(sending.map(({ thread, post }) => postPrediction(thread, post, api)));
    ctx.crashPoint?.('after-post');
    outcomes.forEach((outcome, i) => ledger.apply(outcome, sending[i]!.thread, sending[i]!.tries));
  };

  try {
    for (let i = 0; i < todo.length; i += width) {
      const chunk = todo.slice(i, i + width);
      // An analyser that may take its whole timeout is not started when the run could not wait for it (R4).
      // Its posts then need time too: one sent with seconds left could time out after leaving, and be lost.
      if (!ledger.stop && slow && ctx.timing.now() + config.timeoutMs + KILL_GRACE_MS + POST_RESERVE_MS > deadline) ledger.stop = new BudgetError();
      if (ledger.stop) {
        chunk.forEach((thread) => ledger.leaveDue(thread));
        continue;
      }
      spinner.update(chunk.length === 1 ? `Thread ${chunk[0]!.id} (${chunk[0]!.projectId})…` : `Analysing ${chunk.length} threads…`);
      const prepared = await Promise.all(
        chunk.map((thread) =>
          prepareThread(thread, ledger.journal[thread.id], {
            analyser: analyser!,
            profile: profile as Profile,
            dryRun,
            trace: (line) => show(thread.id, line),
          }),
        ),
      );
      prepared.forEach((outcome, j) => {
        const thread = chunk[j]!;
        const tries = ledger.journal[thread.id]?.tries ?? 0;
        if (outcome.kind !== 'post') ledger.apply(outcome, thread, tries);
        else batch.push({ thread, tries, post: outcome });
      });
      if (batch.length >= POST_BATCH || (slow && batch.length)) await flush();
    }
    await flush();
  } finally {
    // The state must still be saved after this: a close that fails is reported, not thrown.
    await analyser?.close?.().catch((error: unknown) => ctx.output.warn(`agent: stopping the analyser failed: ${error instanceof Error ? error.message : String(error)}`));
  }
}

function parseLimit(raw: string | undefined): number {
  if (raw === undefined) return LIMITS.defaultThreadLimit;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > 1000) {
    throw new UsageError(`--limit must be a whole number from 1 to 1000 (got ${JSON.stringify(raw)})`, { hint: 'nothing was sent' });
  }
  return n;
}
