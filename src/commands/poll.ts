import { COMMAND_BUDGET_MS, openSession, rateLimitedUntil, stateStore, type Context } from '../context.js';
import type { Profile } from '../domain/profile.js';
import type { Thread } from '../domain/thread.js';
import { EXIT, RateLimitedError, TemporaryError, UsageError, type ExitCode } from '../errors.js';
import { compareKey, nextCursor } from '../poll/cursor.js';
import { fetchNewThreads } from '../poll/fetch-new.js';
import type { Outcome, ToPost } from '../poll/handle-thread.js';
import { isHandled, journalOf, MAX_TRIES, pruneJournal } from '../poll/journal.js';
import { renderPoll, type PollReport } from '../poll/report.js';
import type { ServiceApi } from '../service/api.js';
import { acquireLock } from '../state/lock.js';
import type { State } from '../state/schema.js';

export interface PollOptions {
  limit?: string;
  dryRun?: boolean;
}

/** One polling cycle: state → new threads → analysis → predictions → state (cli.md `poll`). */
/** Threads marked "posting" by one durable write and then posted side by side. */
const POST_BATCH = 8;

export async function runPoll(options: PollOptions, ctx: Context): Promise<ExitCode> {
  const limit = parseLimit(options.limit);
  const dryRun = options.dryRun === true;
  const started = ctx.timing.now();
  // A dry run changes nothing, so it takes no lock and is never turned away by one.
  const lock = dryRun ? undefined : acquireLock({ dir: stateStore(ctx).dir, pid: ctx.pid, now: started });
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
    ctx.output.detail(`agent: rate limited until ${state.rateLimitedUntil}; nothing sent this run`);
    renderPoll({ posted: [], skipped: [], failed: [], cursor: state.cursor }, ctx.output, { dryRun, elapsedMs: 0 });
    return EXIT.ok;
  }
  const journal = journalOf(state);
  const save = (extra: Partial<State> = {}) => {
    if (!dryRun) store.write({ ...state, journal, ...extra });
  };
  const rememberRateLimit = (error: unknown) => {
    if (error instanceof RateLimitedError) save({ rateLimitedUntil: new Date(error.until).toISOString() });
  };

  const spinner = await ctx.output.spinner('Fetching new threads…');
  const report: PollReport = { posted: [], skipped: [], failed: [], cursor: state.cursor };
  const handled: Array<{ timestamp: string; id: string }> = [];
  const due: Array<{ timestamp: string; id: string }> = [];
  let stop: Error | undefined;
  let exitCode: ExitCode = EXIT.ok;
  try {
    const fresh = await fetchNewThreads(api, state.cursor, limit);
    if (fresh.unidentifiable) ctx.output.warn(`agent: ${fresh.unidentifiable} thread(s) in the list had no usable id or timestamp and were ignored`);
    for (const bad of fresh.malformed) {
      if (!isHandled(journal[bad.id])) {
        report.skipped.push({ threadId: bad.id, reason: bad.reason });
        journal[bad.id] = { ts: bad.timestamp, status: 'skipped', reason: bad.reason };
      }
      handled.push(bad);
    }
    // Newest first: an early prediction earns more, and the oldest have lost most of their bonus anyway.
    const threads = fresh.threads.sort((a, b) => compareKey(b, a));
    const todo = threads.filter((t) => !isHandled(journal[t.id]));
    handled.push(...threads.filter((t) => isHandled(journal[t.id])));
    const profile = todo.some((t) => !t.locked) ? await fetchProfile(api) : undefined;
    // The analysis (a lexicon of compiled patterns) loads only when there is a thread to handle: most
    // cron runs find nothing new and should not pay for it (performance.md).
    const { prepareThread, postPrediction } = todo.length ? await import('../poll/handle-thread.js') : ({} as never);

    // Posts go out in batches: one durable write marks the whole batch "posting" before any of its POSTs
    // leaves (R2), then they are sent side by side. A crash mid-batch leaves at most a batch of threads
    // "unknown" (never posted again), and a run of 500 threads does 60 fsyncs instead of 500.
    let batch: Array<{ thread: Thread; tries: number; post: ToPost }> = [];
    const flush = async () => {
      const sending = batch;
      batch = [];
      if (stop) {
        due.push(...sending.map((b) => b.thread));
        return;
      }
      if (!sending.length) return;
      for (const { thread, tries } of sending) journal[thread.id] = { ts: thread.timestamp, status: 'posting', tries: tries || undefined };
      save();
      spinner.update(`Posting ${sending.length} prediction(s)…`);
      const outcomes = await Promise.all(sending.map(({ thread, post }) => postPrediction(thread, post, api)));
      outcomes.forEach((outcome, i) => {
        stop ??= apply(outcome, sending[i]!.thread, sending[i]!.tries);
      });
    };

    for (const thread of todo) {
      if (stop) {
        due.push(thread);
        continue;
      }
      spinner.update(`Thread ${thread.id} (${thread.projectId})…`);
      const tries = journal[thread.id]?.tries ?? 0;
      const prepared = await prepareThread(thread, journal[thread.id], {
        profile: profile as Profile,
        dryRun,
        trace: (line) => ctx.output.pollTrace(`  ${thread.id}: ${line}`),
      });
      if (prepared.kind === 'post') {
        batch.push({ thread, tries, post: prepared });
        if (batch.length === POST_BATCH) await flush();
      } else {
        stop = apply(prepared, thread, tries);
      }
    }
    await flush();
  } catch (error) {
    spinner.stop();
    rememberRateLimit(error);
    throw error;
  }
  spinner.stop();

  function apply(outcome: Outcome, thread: Thread, tries: number): Error | undefined {
    const done = (status: 'posted' | 'skipped', reason?: string) => {
      journal[thread.id] = { ts: thread.timestamp, status, ...(reason ? { reason } : {}) };
      handled.push(thread);
    };
    switch (outcome.kind) {
      case 'posted':
        report.posted.push({ threadId: thread.id, conviction: outcome.conviction, text: outcome.text, predictionId: outcome.predictionId });
        done('posted');
        return undefined;
      case 'skipped':
        report.skipped.push({ threadId: thread.id, reason: outcome.reason });
        done('skipped', outcome.reason);
        return undefined;
      case 'unknown':
        // Never posted on again, by poll or by predict (R2).
        report.failed.push({ threadId: thread.id, error: outcome.error });
        exitCode = Math.max(exitCode, EXIT.temporary) as ExitCode;
        journal[thread.id] = { ts: thread.timestamp, status: 'unknown', reason: outcome.error };
        handled.push(thread);
        return undefined;
      case 'failed':
        report.failed.push({ threadId: thread.id, error: outcome.error });
        exitCode = Math.max(exitCode, outcome.exitCode) as ExitCode;
        if (!outcome.retry) done('skipped', outcome.error);
        else if (tries + 1 >= MAX_TRIES) done('skipped', `given up after ${tries + 1} temporary failures`);
        else {
          journal[thread.id] = { ts: thread.timestamp, status: 'failed', tries: tries + 1 };
          due.push(thread);
        }
        return undefined;
      case 'stop':
        report.failed.push({ threadId: thread.id, error: outcome.error.message });
        journal[thread.id] = { ts: thread.timestamp, status: 'failed', tries };
        due.push(thread);
        return outcome.error;
    }
  }

  report.cursor = nextCursor(state.cursor, handled, due);
  const blockedAfter = session.http.blockedUntil;
  const final: State = {
    ...state,
    cursor: report.cursor,
    journal: pruneJournal(journal, report.cursor, ctx.timing.now()),
    rateLimitedUntil: blockedAfter !== undefined && blockedAfter > ctx.timing.now() ? new Date(blockedAfter).toISOString() : undefined,
  };
  // Most runs change nothing: no write, no fsync, 288 times a day.
  if (!dryRun && JSON.stringify(final) !== JSON.stringify(state)) store.write(final);
  // On a stop the one JSON document is the error's, so the report shows only to a person.
  if (!stop || !ctx.output.json) renderPoll(report, ctx.output, { dryRun, elapsedMs: ctx.timing.now() - started });
  if (stop) throw stop;
  return exitCode;
}

function parseLimit(raw: string | undefined): number {
  if (raw === undefined) return 50;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > 1000) {
    throw new UsageError(`--limit must be a whole number from 1 to 1000 (got ${JSON.stringify(raw)})`, { hint: 'nothing was sent' });
  }
  return n;
}

async function fetchProfile(api: ServiceApi): Promise<Profile> {
  const profile = (await api.me()).prediction_profile;
  if (!profile) throw new TemporaryError("the service did not return this agent's prediction profile", { hint: 'try again later' });
  return profile;
}
