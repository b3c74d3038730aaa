import { analyzeThread, builtinAnalyzer } from '../analysis/index.js';
import { sigmaOf, sizeCap } from '../analysis/profile-numbers.js';
import { composeSummary, isValidText } from '../analysis/summary-text.js';
import type { DecidedBy, Decision } from '../analysis/types.js';
import { COMMAND_BUDGET_MS, openSession, POST_RESERVE_MS, stateStore, type Context, type Session } from '../context.js';
import type { Thread } from '../domain/thread.js';
import { EXIT, UsageError } from '../errors.js';
import { exitCodeOf, isStateProblem, messageOf, recordRun } from '../history/record-run.js';
import { RunRecorder } from '../history/recorder.js';
import { oneLine } from '../output/sanitize.js';
import { lockedError, type ServiceApi } from '../service/api.js';
import type { Prediction } from '../service/schemas.js';
import type { JournalEntry } from '../state/schema.js';
import { mayBePosted, withEntry } from '../posting/journal.js';
import type { Outcome } from '../posting/outcome.js';
import { guardAfter, postOnce } from '../posting/post-once.js';
import { acquireLock } from '../state/lock.js';
import { loadAnalyzer } from '../analysis/load.js';
import { decisionJson, decisionLine } from '../analysis/describe-decision.js';
import { checkThreadId } from '../domain/inputs.js';

export interface PredictOptions {
  conviction?: string;
  text?: string;
  dryRun?: boolean;
  /** Posts a size beyond the profile's without asking. */
  yes?: boolean;
}

/** Fetches one thread and posts one prediction on it: the user's values, or the analyzer's decision. */
export async function runPredict(rawId: string, options: PredictOptions, ctx: Context): Promise<void> {
  const threadId = checkThreadId(rawId);
  const own = parseOwnValues(options);
  const dryRun = options.dryRun === true;
  // Shares the journal with poll, so a manual prediction and a cron run never both post (never-twice, one-writer).
  const lock = dryRun
    ? undefined
    : acquireLock({ dir: stateStore(ctx).dir, pid: ctx.pid, now: ctx.timing.now(), user: ctx.user });
  const started = ctx.timing.now();
  // A dry run records nothing, as it changes nothing.
  const recorder = dryRun ? undefined : new RunRecorder('predict', ctx.timing.now);
  try {
    await predictLocked(threadId, own, options, ctx, recorder);
    if (recorder) recordRun(ctx, recorder.finish(started, EXIT.ok));
  } catch (error) {
    if (recorder && !isStateProblem(error))
      recordRun(ctx, recorder.finish(started, exitCodeOf(error), messageOf(error)));
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
  recorder: RunRecorder | undefined,
): Promise<void> {
  const dryRun = options.dryRun === true;
  const deadline = ctx.timing.now() + COMMAND_BUDGET_MS;
  const session = openSession(ctx, { deadline, holdsLock: true, dryRun });
  const { api, state, held } = session;
  const previous = state.journal?.get(threadId);
  if (mayBePosted(previous)) {
    const reason =
      previous?.status === 'posted'
        ? 'already predicted by this agent'
        : 'an earlier post on it may have landed; not posted again';
    recorder?.skip(threadId, undefined, reason);
    return report(ctx, { threadId, action: 'skip', reason });
  }
  const spinner = await ctx.output.spinner(`Fetching thread ${threadId}…`);
  try {
    const thread = await api.thread(threadId);
    if (thread.locked) throw lockedError(threadId);
    spinner.update('Analyzing…');
    const { decision, by } = own
      ? { decision: await userDecision(thread, own, ctx), by: undefined }
      : await analyzedDecision(thread, session, ctx, deadline);
    if (decision.action === 'skip' || dryRun) {
      spinner.stop();
      if (decision.action === 'skip') recorder?.skip(threadId, thread.cell, decision.reason, by);
      return report(ctx, { threadId, ...decision }, thread, dryRun);
    }
    if (own) {
      spinner.stop();
      await confirmSize(decision.conviction, thread, api, options, ctx);
    }
    spinner.update('Posting…');
    // Retention of a post's entry counts from when it was written (journal.ts), so it carries the time.
    const entry = (status: 'posting' | 'posted' | 'unknown'): JournalEntry => ({
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
      markPosting: () => mark(entry('posting')),
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

interface OwnValues {
  conviction: number;
  text: string | undefined;
}

function parseOwnValues(options: PredictOptions): OwnValues | undefined {
  if (options.conviction === undefined) {
    if (options.text !== undefined) throw new UsageError('--text needs --conviction', { hint: 'nothing was sent' });
    return undefined;
  }
  const conviction = parseConviction(options.conviction);
  if (options.text !== undefined && !isValidText(options.text)) {
    const n = Array.from(options.text).length;
    throw new UsageError(`--text must be 20-300 characters (got ${n})`, { hint: 'nothing was sent' });
  }
  return { conviction, text: options.text };
}

/** A plain decimal with an optional sign and `%`: what a person types for "1.5 %". */
const DECIMAL = /^[+-]?(?:\d+(?:\.\d+)?|\.\d+)%?$/;
/** A 3-hour move beyond this is not a prediction but a typo; the service may refuse far less. */
export const MAX_CONVICTION = 1000;

/**
 * The user's conviction, one decimal. Only plain decimals: Number() also reads hex, exponents and
 * "Infinity", and `0x10` once became +16.0. A price cannot fall 100 % or more.
 */
export function parseConviction(raw: string): number {
  const text = raw.trim();
  const shown = JSON.stringify(oneLine(raw, 40));
  if (!DECIMAL.test(text)) {
    throw new UsageError(
      `--conviction must be a decimal number, the predicted % change over 3 h, e.g. 1.5, -2 or 0.7% (got ${shown})`,
      { hint: 'nothing was sent' },
    );
  }
  // Halves away from zero, so that a size and its opposite round alike.
  const value = Number(text.replace('%', ''));
  const conviction = (Math.sign(value) * Math.round(Math.abs(value) * 10)) / 10 || 0;
  if (conviction === 0) {
    throw new UsageError('--conviction rounds to 0.0, which predicts no direction', {
      hint: 'give at least ±0.1; nothing was sent',
    });
  }
  if (conviction <= -100)
    throw new UsageError(
      `--conviction ${conviction} would be a price falling ${-conviction} %: a price cannot fall 100 % or more`,
      { hint: 'nothing was sent' },
    );
  if (conviction > MAX_CONVICTION)
    throw new UsageError(`--conviction ${conviction} is beyond ${MAX_CONVICTION} %, not a 3-hour move`, {
      hint: 'nothing was sent',
    });
  return conviction;
}

/**
 * A post cannot be undone, so a size beyond the largest the agent's own profile would post on this cell is
 * confirmed: asked at a terminal, or given as --yes; anywhere else (cron, a pipe, --json) it is refused.
 */
async function confirmSize(
  conviction: number,
  thread: Thread,
  api: ServiceApi,
  options: PredictOptions,
  ctx: Context,
): Promise<void> {
  if (options.yes) return;
  const profile = await api.profile();
  const cap = sizeCap(profile.conviction_style, sigmaOf(thread.cell));
  if (Math.abs(conviction) <= cap) return;
  const what = `${conviction > 0 ? '+' : ''}${conviction.toFixed(1)}% on ${oneLine(thread.projectId, 60)} is beyond the largest size your profile (${profile.conviction_style}) posts there, ±${cap.toFixed(1)}%`;
  if (!ctx.prompt?.available()) throw new UsageError(what, { hint: 'add --yes to post it anyway; nothing was sent' });
  const answer = await ctx.prompt.ask(`${what}. Post it anyway? [y/N] `);
  if (!/^y(es)?$/i.test(answer.trim()))
    throw new UsageError('not posted: the size was not confirmed', { hint: 'nothing was sent' });
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

async function analyzedDecision(
  thread: Thread,
  session: Session,
  ctx: Context,
  deadline: number,
): Promise<{ decision: Decision; by?: DecidedBy }> {
  const profile = await session.api.profile();
  const { analyzer } = await loadAnalyzer(ctx, {
    secrets: [session.state.apiKey],
    deadline: deadline - POST_RESERVE_MS,
  });
  const { decision, trace, by } = await analyzeThread(analyzer, thread, profile).finally(() => analyzer.close?.());
  for (const line of trace) ctx.output.detail(`  ${line}`);
  return { decision, by };
}

/** The POST's outcome as predict's result, or the error that ends the command. */
function reportOutcome(ctx: Context, outcome: Outcome, thread: Thread, decision: Decision): void {
  const threadId = thread.id;
  switch (outcome.kind) {
    case 'posted':
      report(ctx, { threadId, ...decision, prediction: outcome.prediction }, thread);
      return;
    case 'skipped':
      if (!outcome.predicted) throw lockedError(threadId);
      report(ctx, { threadId, action: 'skip', reason: outcome.reason });
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
