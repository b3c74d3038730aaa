import { commandDeadline, mayAskPage } from '../domain/budget.js';
import type { Context } from '../context.js';
import { openSession, type Session } from '../session.js';
import { pausedUntil, pauseNote, pauseToKeep } from '../http/pause.js';
import { recordRun } from '../history/record-run.js';
import type { RunRecorder } from '../history/recorder.js';
import type { Thread } from '../domain/thread.js';
import { BudgetError, CancelledError, EXIT, type ExitCode } from '../errors.js';
import { oneLine } from '../output/sanitize.js';
import type { MalformedThread, UndatedThread } from '../service/api.js';
import type { PriceRecorder } from '../record/recorder.js';
import { compareKey, isFuture } from '../domain/cursor.js';
import { refusalOf } from '../domain/keyed-thread.js';
import { latestThreads, walkNewThreads } from './fetch-new.js';
import { aheadOf, isHandled, MAX_AHEAD, pruneJournal } from '../posting/journal.js';
import { heldJournal } from '../posting/post-once.js';
import type { Lock } from '../state/lock.js';
import { PollLedger } from './ledger.js';
import { emptyReport, renderPoll } from './report.js';
import { threadHandler, type ThreadHandler } from './thread-handler.js';

/**
 * One polling cycle: state → new threads → analysis → predictions → state (docs/cli.md `poll`). The caller
 * holds the run lock, unless this is a dry run, which changes nothing.
 *
 * Page by page, oldest first from the cursor, each page handled and saved before the next is asked for,
 * so that a slow service or a long backlog still moves forward run after run. When the first page shows a
 * backlog, the latest page comes next: after a long gap, the threads still open are the newest, and early
 * predictions earn the most. The walk then goes on through the rest.
 */
export async function pollCycle(
  {
    limit,
    dryRun,
    started,
    recorder,
    prices,
    shouldStop,
    lock,
  }: {
    limit: number;
    dryRun: boolean;
    started: number;
    recorder?: RunRecorder | undefined;
    /** Records the prices and texts of the threads read (docs/record.md#the-record-was-it-right); absent in a dry run. */
    prices?: PriceRecorder | undefined;
    /** A watcher was asked to stop: no thread is started after the one in hand. */
    shouldStop?: (() => boolean) | undefined;
    /** The run lock; none for a dry run. */
    lock: Lock | undefined;
  },
  ctx: Context,
): Promise<ExitCode> {
  const deadline = commandDeadline(started);
  const now = () => ctx.timing.now();
  const session = openSession(ctx, { deadline, lock, dryRun });
  const { api, state, held } = session;
  if (pausedUntil(state, started) !== undefined) {
    // The service asked for a pause (polite): this run sends nothing at all.
    const note = pauseNote(state);
    renderPoll(emptyReport(state.cursor), ctx.output, {
      dryRun,
      elapsedMs: 0,
      note,
    });
    return EXIT.ok;
  }
  const ledger = new PollLedger(state, now, recorder);
  const spinner = await ctx.output.spinner('Fetching new threads…');
  const handler: ThreadHandler = threadHandler({
    shouldStop,
    api,
    ledger,
    dryRun,
    ctx,
    spinner,
    deadline,
    secrets: [state.apiKey],
    // The marks go into the ledger's journal, which is written whole with each page.
    journal: heldJournal(held, ledger.journal, now),
  });

  // Threads first met this run dated ahead of the local clock: a service's time zone or unit mistake
  // would otherwise stop the agent silently, every later thread hidden behind a cursor set in the future.
  const aheadOfClock: Thread[] = [];
  const take = async (
    page: {
      threads: Thread[];
      malformed: MalformedThread[];
      undated: UndatedThread[];
      unidentifiable: number;
    },
    { ahead = false } = {},
  ) => {
    if (page.unidentifiable)
      ctx.output.warn(`agent: ${page.unidentifiable} thread(s) in the list had no usable id and were ignored`);
    for (const { id, sent } of page.undated) {
      const what =
        sent === undefined ? 'no timestamp' : `the timestamp ${oneLine(sent, 60)}, not an ISO 8601 date-time`;
      ctx.output.warn(
        `agent: thread ${JSON.stringify(oneLine(id, 80))} has ${what}: it cannot be placed relative to the cursor, so it was ignored`,
      );
    }
    for (const bad of page.malformed) ledger.malformed(bad);
    const todo: Thread[] = [];
    let refused = 0;
    for (const thread of page.threads) {
      // Before anything reads, records or sends it: once, and then never again (never-twice).
      const refusal = refusalOf(thread, [state.apiKey]);
      if (refusal) {
        if (ledger.refused(thread, refusal)) refused += 1;
        continue;
      }
      const entry = ledger.journal.get(thread.id);
      if (isHandled(entry)) ledger.alreadyHandled(thread);
      else todo.push(thread);
      if (!entry && isFuture(thread, now())) aheadOfClock.push(thread);
    }
    if (refused)
      ctx.output.warn(
        `agent: ${refused} thread(s) refused: the service sent a thread that holds this agent's API key (as its id, cell, text or a citation); it is skipped for good, and nothing of it is analyzed, recorded or sent`,
      );
    // Newest first: an early prediction earns more, and the oldest have lost most of their bonus anyway.
    if (todo.length) await handler.handle(todo.sort((a, b) => compareKey(b, a)));
    prices?.page(todo, { ahead });
  };

  try {
    let first = true;
    for await (const page of walkNewThreads(api, state.cursor, limit)) {
      // The run has work ahead: from here on it is tuned for it (main.ts says how and why not earlier).
      if (first && page.threads.length) await ctx.tuneForBatch?.();
      // Without a cursor the first page is the latest already.
      if (first && page.seenUpTo && state.cursor)
        await take(await latestThreads(api, state.cursor, limit), { ahead: true });
      first = false;
      await take(page);
      const cursor = ledger.cursor(page.seenUpTo);
      // An empty page changes nothing worth a write (pruning waits for the next page that brings threads).
      if (page.threads.length || page.malformed.length)
        held?.update({ cursor, journal: pruneJournal(ledger.journal, cursor, now()) });
      // What the page did goes to the history with it: a long run holds no more than a page of records.
      if (recorder) recordRun(ctx, recorder.take());
      if (ledger.stop || !page.seenUpTo) break;
      if (!mayAskPage(deadline, now())) {
        ledger.stop = new BudgetError();
        break;
      }
      if (aheadOf(ledger.journal, cursor) >= MAX_AHEAD) {
        ctx.output.detail(
          `agent poll: ${MAX_AHEAD} threads wait ahead of the cursor behind one still due; the next run goes on`,
        );
        break;
      }
    }
  } catch (error) {
    // What was handled is kept (a post's mark above all); the cursor stays where the last page left it.
    held?.update({ journal: ledger.journal });
    throw error;
  } finally {
    spinner.stop();
    await handler.close();
    warnAheadOfClock(aheadOfClock, ctx);
  }

  if (recorder && !ledger.stop) await snapshotCounters(recorder, session, now());
  held?.update({ rateLimitedUntil: pauseToKeep(session.http.pauseEnds, now()) });
  // On a stop the one JSON document is the error's, so the report shows only to a person; a watcher's
  // signal is no failure, and its last cycle is reported as any other.
  if (!ledger.stop || !ctx.output.json || ledger.stop instanceof CancelledError)
    renderPoll(ledger.report, ctx.output, { dryRun, elapsedMs: now() - started });
  if (ledger.stop) throw ledger.stop;
  return ledger.exitCode;
}

/** How often a poll asks for the agent's counters, for `agent stats`: the one request it adds. */
export const SNAPSHOT_EVERY_MS = 60 * 60_000;

/**
 * At most once an hour, the service's counters (honey, wax, predictions) go into the run's summary. A
 * failure costs the snapshot, never the run: the next run tries again.
 */
async function snapshotCounters(recorder: RunRecorder, session: Session, now: number): Promise<void> {
  const last = Date.parse(session.state.historySnapshotAt ?? '');
  if (Number.isFinite(last) && now - last < SNAPSHOT_EVERY_MS && last <= now) return;
  try {
    const me = await session.api.me();
    recorder.counters = { honey: me.honey ?? 0, wax: me.wax ?? 0, predictions: me.total_comments ?? 0 };
    session.held?.update({ historySnapshotAt: new Date(now).toISOString() });
  } catch {
    // the next run tries again
  }
}

// Once a run, however many: a service (or a sandbox with a fast clock) that dates every thread ahead
// would otherwise write a line per thread into each cron mail.
function warnAheadOfClock(threads: Thread[], ctx: Context): void {
  const first = threads.reduce<Thread | undefined>((min, t) => (!min || compareKey(t, min) < 0 ? t : min), undefined);
  if (!first) return;
  // The thread's time and the clock's, each named as what it is.
  const clock = `this machine's clock (now ${new Date(ctx.timing.now()).toISOString()})`;
  const dated = oneLine(first.timestamp, 40);
  const what =
    threads.length === 1
      ? `thread ${first.id} is dated ${dated}, ahead of ${clock}: handled, but the cursor does not move past the present for it`
      : `${threads.length} threads are dated ahead of ${clock}, the earliest, ${first.id}, at ${dated}: handled, but the cursor does not move past the present for them`;
  ctx.output.warn(`agent: ${what}`);
}
