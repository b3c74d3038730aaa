import { analyzeThread, builtinAnalyzer } from '../../analysis/index.js';
import { composeSummary } from '../../analysis/summary-text.js';
import type { DecidedBy, Decision } from '../../analysis/types.js';
import type { Context } from '../../context.js';
import { openSession, takeLock, type Session } from '../../session.js';
import { analyzerDeadline, commandDeadline } from '../../domain/budget.js';
import type { Thread } from '../../domain/thread.js';
import { EXIT } from '../../errors.js';
import { exitCodeOf, isStateProblem, recordedMessage, recordRun } from '../../history/record-run.js';
import { RunRecorder } from '../../history/recorder.js';
import { lockedError } from '../../service/api.js';
import type { Prediction } from '../../service/schemas.js';
import type { JournalEntry } from '../../state/schema.js';
import { journalOf, withEntry } from '../../posting/journal.js';
import { BY_HAND, skipByJournal, skipByThread, skipDecision } from '../../posting/skip-rule.js';
import type { Outcome } from '../../posting/outcome.js';
import { guardAfter, heldJournal, postOnce } from '../../posting/post-once.js';
import type { Lock } from '../../state/lock.js';
import { confirmSize, sizeQuestion } from './confirm-size.js';
import { parseOwnValues, type OwnValues } from './own-values.js';
import { loadAnalyzer } from '../../analysis/load.js';
import { decisionJson, decisionLine } from '../../analysis/describe-decision.js';
import { checkThreadId } from '../../domain/inputs.js';
import { recordThread, typicalMoves, withTypicalMove } from '../../record/run-hooks.js';

export interface PredictOptions {
  conviction?: string;
  text?: string;
  dryRun?: boolean;
  /** Posts a size beyond the profile's without asking. */
  yes?: boolean;
}

/** Fetches one thread and posts one prediction on it: the user's values, or the analyzer's decision. */
export async function runPredict(ctx: Context, rawId: string, options: PredictOptions): Promise<void> {
  const threadId = checkThreadId(rawId);
  const own = parseOwnValues(options);
  const dryRun = options.dryRun === true;
  // Shares the journal with poll, so a manual prediction and a cron run never both post (never-twice, one-writer).
  let lock = dryRun ? undefined : takeLock(ctx);
  // No question is asked while the lock is held: a person may take minutes to answer, and the cron polls
  // meanwhile would find the lock held (one-writer). It is given back for the question and taken again after.
  const unlocked = async (ask: () => Promise<void>): Promise<Lock> => {
    lock?.release();
    lock = undefined;
    await ask();
    lock = takeLock(ctx);
    return lock;
  };
  const started = ctx.timing.now();
  // A dry run records nothing, as it changes nothing.
  const recorder = dryRun ? undefined : new RunRecorder('predict', ctx.timing.now);
  try {
    await predictLocked(threadId, own, options, ctx, { recorder, lock, unlocked });
    if (recorder) recordRun(ctx, recorder.finish(started, EXIT.ok));
  } catch (error) {
    if (recorder && !isStateProblem(error))
      recordRun(ctx, recorder.finish(started, exitCodeOf(error), recordedMessage(error)));
    throw error;
  } finally {
    lock?.release();
  }
}

/** The run itself, under the lock (a dry run takes none), recording what it does unless dry. */
async function predictLocked(
  threadId: string,
  own: OwnValues | undefined,
  options: PredictOptions,
  ctx: Context,
  {
    recorder,
    lock,
    unlocked,
  }: {
    recorder: RunRecorder | undefined;
    lock: Lock | undefined;
    /** Runs a question without the lock, and gives the lock taken again after it. */
    unlocked: (ask: () => Promise<void>) => Promise<Lock>;
  },
): Promise<void> {
  const dryRun = options.dryRun === true;
  const deadline = commandDeadline(ctx.timing.now());
  let session = openSession(ctx, { deadline, lock, dryRun });
  let previous = session.state.journal?.get(threadId);
  // The poll's rule (src/posting/skip-rule.ts), step 1: before any request.
  const done = () => {
    const skip = skipByJournal(previous);
    if (!skip) return false;
    recorder?.skip(threadId, undefined, skip);
    report(ctx, { threadId, ...skipDecision(skip) });
    return true;
  };
  if (done()) return;
  const spinner = await ctx.output.spinner(`Fetching thread ${threadId}…`);
  try {
    const thread = await session.api.thread(threadId);
    if (recorder) recordThread(ctx, thread);
    spinner.update('Analyzing…');
    const { decision, by } = await decideByHand(thread, own, session, ctx, deadline);
    if (decision.action === 'skip' || dryRun) {
      spinner.stop();
      if (decision.action === 'skip') recorder?.skip(threadId, thread.cell, decision, by);
      return report(ctx, { threadId, ...decision }, thread, dryRun);
    }
    const question = own && (await sizeQuestion(decision.conviction, thread, session.api, options.yes === true, ctx));
    if (question) {
      spinner.stop();
      const relocked = await unlocked(() => confirmSize(question, ctx));
      // Read again: a poll may have posted on this thread while the person answered. The answer's wait
      // is not the run's: the budget starts anew (bounded).
      session = openSession(ctx, { deadline: commandDeadline(ctx.timing.now()), lock: relocked });
      previous = session.state.journal?.get(threadId);
      if (done()) return;
    }
    const { api, held } = session;
    spinner.update('Posting…');
    // Retention of a post's entry counts from when it was written (journal.ts), so it carries the time.
    const entry = (status: 'posted' | 'unknown'): JournalEntry => ({
      ts: thread.timestamp,
      status,
      at: new Date(ctx.timing.now()).toISOString(),
    });
    if (!held) throw new Error('bug: predict posts without holding the state');
    const mark = (next: JournalEntry | undefined) =>
      held.update({ journal: withEntry(held.current.journal, threadId, next) });
    const post = { kind: 'post', conviction: decision.conviction, text: decision.text, ...(by ? { by } : {}) } as const;
    const [sent] = await postOnce([{ thread, post }], {
      api,
      journal: heldJournal(held, journalOf(held.current), () => ctx.timing.now()),
      crashPoint: ctx.crashPoint,
    });
    if (!sent) throw new Error('bug: a post without an outcome');
    // Certainly not stored: the entry goes back to what it was, so a later run may post on the thread.
    const guard = guardAfter(sent.outcome);
    mark(guard ? entry(guard) : previous);
    recorder?.outcome(thread, sent.outcome);
    spinner.stop();
    return reportOutcome(ctx, sent.outcome, thread, decision);
  } finally {
    spinner.stop();
  }
}

async function userDecision(thread: Thread, own: OwnValues, ctx: Context): Promise<Decision> {
  if (own.text !== undefined) return { action: 'post', conviction: own.conviction, text: own.text };
  // No text given: say why in the analyzer's words, keeping only the evidence that agrees with the user.
  const signal = await builtinAnalyzer.analyze(thread, neutralProfile, []);
  const reasons =
    signal.kind === 'signal'
      ? signal.evidence.filter((e) => Math.sign(e.weight) === Math.sign(own.conviction)).map((e) => e.phrase)
      : [];
  ctx.output.detail(
    `agent: composed the text from ${reasons.length} piece(s) of evidence that agree with ${own.conviction}`,
  );
  return {
    action: 'post',
    conviction: own.conviction,
    text: composeSummary({ cell: thread.cell, conviction: own.conviction, reasons }),
  };
}

// Only used to read evidence for a text; the user's conviction, not the profile, sets the size.
const neutralProfile = {
  signal_method: 'sentiment',
  conviction_style: 'moderate',
  directional_bias: 'neutral',
  participation: 'active',
} as const;

/**
 * The poll's rule (src/posting/skip-rule.ts) from step 2 on, as `BY_HAND` says a person meets it: a locked
 * thread is an error, and the user's own values take the place of the analyzer's decision.
 */
async function decideByHand(
  thread: Thread,
  own: OwnValues | undefined,
  session: Session,
  ctx: Context,
  deadline: number,
): Promise<{ decision: Decision; by?: DecidedBy }> {
  // Loaded first: the keys whose cells are skipped include the model's.
  const loaded = own
    ? undefined
    : await loadAnalyzer(ctx, { secrets: [session.state.apiKey], deadline: analyzerDeadline(deadline) });
  try {
    const before = skipByThread(thread, loaded?.keys ?? [session.state.apiKey]);
    if (before && BY_HAND[before.skipKind] === 'refuses') throw lockedError(thread.id);
    if (before) return { decision: skipDecision(before) };
    if (own) return { decision: await userDecision(thread, own, ctx) };
    if (!loaded) throw new Error('bug: predict decides without its values or an analyzer');
    const profile = await session.api.profile();
    const sized = withTypicalMove(thread, typicalMoves(ctx));
    const { decision, trace, by } = await analyzeThread(loaded.analyzer, sized, profile);
    for (const line of trace) ctx.output.detail(`  ${line}`);
    return { decision, by };
  } finally {
    await loaded?.analyzer.close?.();
  }
}

/** The POST's outcome as predict's result, or the error that ends the command. */
function reportOutcome(ctx: Context, outcome: Outcome, thread: Thread, decision: Decision): void {
  const threadId = thread.id;
  switch (outcome.kind) {
    case 'posted':
      report(ctx, { threadId, ...decision, prediction: outcome.prediction }, thread);
      return;
    case 'skipped':
      if (BY_HAND[outcome.skipKind] === 'refuses') throw lockedError(threadId);
      report(ctx, { threadId, action: 'skip', skipKind: outcome.skipKind, reason: outcome.reason });
      return;
    case 'stop':
      throw outcome.error;
    case 'failed':
    case 'unknown':
      throw outcome.cause ?? new Error(outcome.error);
  }
}

type PredictResult = { threadId: string; prediction?: Prediction | undefined } & Decision;

function report(ctx: Context, result: PredictResult, thread?: Thread, dryRun = false): void {
  const where = thread ? `${thread.id} (${thread.projectId})` : result.threadId;
  const json = {
    threadId: result.threadId,
    ...decisionJson(result),
    ...(result.prediction ? { prediction: result.prediction } : {}),
  };
  ctx.output.result(decisionLine(result, where, !dryRun), json);
}
