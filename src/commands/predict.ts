import { analyseThread, builtinAnalyser } from '../analysis/index.js';
import { composeSummary, isValidText } from '../analysis/summary-text.js';
import type { Decision } from '../analysis/types.js';
import { COMMAND_BUDGET_MS, openSession, POST_RESERVE_MS, stateStore, type Context, type Session } from '../context.js';
import type { Thread } from '../domain/thread.js';
import { mayHaveLanded, UsageError } from '../errors.js';
import { oneLine } from '../output/sanitize.js';
import { lockedError } from '../service/api.js';
import type { Prediction } from '../service/schemas.js';
import type { JournalEntry } from '../state/schema.js';
import { mayBePosted, withEntry } from '../poll/journal.js';
import { acquireLock } from '../state/lock.js';
import { loadAnalyser } from './analyser.js';
import { decisionJson, decisionLine } from './describe-decision.js';
import { checkThreadId } from './inputs.js';

export interface PredictOptions {
  conviction?: string;
  text?: string;
  dryRun?: boolean;
}

/** Fetches one thread and posts one prediction on it: the user's values, or the analyser's decision. */
export async function runPredict(rawId: string, options: PredictOptions, ctx: Context): Promise<void> {
  const threadId = checkThreadId(rawId);
  const own = parseOwnValues(options);
  const dryRun = options.dryRun === true;
  // Shares the journal with poll, so a manual prediction and a cron run never both post (R2, R6).
  const lock = dryRun ? undefined : acquireLock({ dir: stateStore(ctx).dir, pid: ctx.pid, now: ctx.timing.now(), user: ctx.user });
  try {
    const deadline = ctx.timing.now() + COMMAND_BUDGET_MS;
    const session = openSession(ctx, { deadline, holdsLock: true, dryRun });
    const { api, state, held } = session;
    const previous = state.journal?.get(threadId);
    if (mayBePosted(previous)) {
      const reason = previous?.status === 'posted' ? 'already predicted by this agent' : 'an earlier post on it may have landed; not posted again';
      return report(ctx, { threadId, action: 'skip', reason });
    }
    const spinner = await ctx.output.spinner(`Fetching thread ${threadId}…`);
    try {
      const thread = await api.thread(threadId);
      if (thread.locked) throw lockedError(threadId);
      spinner.update('Analysing…');
      const decision = own ? await userDecision(thread, own, ctx) : await analysedDecision(thread, session, ctx, deadline);
      if (decision.action === 'skip' || dryRun) {
        spinner.stop();
        return report(ctx, { threadId, ...decision }, thread, dryRun);
      }
      spinner.update('Posting…');
      // Retention of a post's entry counts from when it was written (journal.ts), so it carries the time.
      const entry = (status: 'posting' | 'posted' | 'unknown'): JournalEntry => ({ ts: thread.timestamp, status, at: new Date(ctx.timing.now()).toISOString() });
      const mark = (next: JournalEntry | undefined) => held!.update({ journal: withEntry(held!.current.journal, threadId, next) });
      mark(entry('posting'));
      ctx.crashPoint?.('before-post');
      const result = await api.predict(threadId, decision.text, decision.conviction).catch((error: unknown) => {
        // Certainly not stored: drop the mark so that a later run may post on the thread. Maybe stored:
        // never post on it again.
        mark(mayHaveLanded(error) ? entry('unknown') : previous);
        throw error;
      });
      ctx.crashPoint?.('after-post');
      mark(entry('posted'));
      spinner.stop();
      if (result.status === 'already') return report(ctx, { threadId, action: 'skip', reason: 'already predicted by this agent' });
      return report(ctx, { threadId, ...decision, prediction: result.prediction }, thread);
    } finally {
      spinner.stop();
    }
  } finally {
    lock?.release();
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
  const raw = Number(options.conviction.trim());
  if (options.conviction.trim() === '' || !Number.isFinite(raw)) {
    throw new UsageError(`--conviction must be a number, the predicted % change over 3 h (got ${JSON.stringify(oneLine(options.conviction, 40))})`, { hint: 'nothing was sent' });
  }
  const conviction = Math.round(raw * 10) / 10 || 0;
  if (conviction === 0) {
    throw new UsageError('--conviction rounds to 0.0, which predicts no direction', { hint: 'give at least ±0.1; nothing was sent' });
  }
  if (options.text !== undefined && !isValidText(options.text)) {
    const n = Array.from(options.text).length;
    throw new UsageError(`--text must be 20-300 characters (got ${n})`, { hint: 'nothing was sent' });
  }
  return { conviction, text: options.text };
}

async function userDecision(thread: Thread, own: OwnValues, ctx: Context): Promise<Decision> {
  if (own.text !== undefined) return { action: 'post', conviction: own.conviction, text: own.text };
  // No text given: say why in the analyser's words, keeping only the evidence that agrees with the user.
  const signal = await builtinAnalyser.analyse(thread, neutralProfile, []);
  const reasons = signal.kind === 'signal' ? signal.evidence.filter((e) => Math.sign(e.weight) === Math.sign(own.conviction)).map((e) => e.phrase) : [];
  ctx.output.detail(`agent: composed the text from ${reasons.length} piece(s) of evidence that agree with ${own.conviction}`);
  return { action: 'post', conviction: own.conviction, text: composeSummary({ cell: thread.cell, conviction: own.conviction, reasons }) };
}

// Only used to read evidence for a text; the user's conviction, not the profile, sets the size.
const neutralProfile = { signal_method: 'sentiment', conviction_style: 'moderate', directional_bias: 'neutral', participation: 'active' } as const;

async function analysedDecision(thread: Thread, session: Session, ctx: Context, deadline: number): Promise<Decision> {
  const profile = await session.api.profile();
  const { analyser } = await loadAnalyser(ctx, { secrets: [session.state.apiKey], deadline: deadline - POST_RESERVE_MS });
  const { decision, trace } = await analyseThread(analyser, thread, profile).finally(() => analyser.close?.());
  for (const line of trace) ctx.output.detail(`  ${line}`);
  return decision;
}

type PredictResult = { threadId: string; prediction?: Prediction | undefined } & Decision;

function report(ctx: Context, result: PredictResult, thread?: Thread, dryRun = false): void {
  const where = thread ? `${thread.id} (${thread.projectId})` : result.threadId;
  const json = { threadId: result.threadId, ...decisionJson(result), ...(result.prediction ? { prediction: result.prediction } : {}) };
  ctx.output.result(decisionLine(result, where, !dryRun), json);
}
