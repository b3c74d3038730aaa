import { analyzeThread, type Trace } from '../../analysis/index.js';
import { parseInput } from '../../analysis/protocol.js';
import type { Context } from '../../context.js';
import { openSession } from '../../session.js';
import { commandDeadline } from '../../domain/budget.js';
import type { Profile } from '../../domain/profile.js';
import type { Thread } from '../../domain/thread.js';
import { UsageError } from '../../errors.js';
import { oneLine } from '../../output/sanitize.js';
import { loadAnalyzer } from '../../analysis/load.js';
import { skipByThread, skipDecision } from '../../posting/skip-rule.js';
import { decisionJson, decisionLine } from '../../analysis/describe-decision.js';
import { checkThreadId } from '../../domain/inputs.js';
import { typicalMoves, withTypicalMove } from '../../record/run-hooks.js';

export interface AnalyzeOptions {
  analyzer?: string;
  stdin?: boolean;
}

/** Largest protocol input `--stdin` reads: a thread is at most a few KiB. */
export const STDIN_LIMIT_BYTES = 1024 * 1024;

/**
 * `agent analyze <threadId>`: the decision the chosen analyzer and the policy reach on a thread, with the
 * whole trace; nothing is posted and no thread state changes. With `--stdin` it is an analyzer itself,
 * speaking the external protocol, so a script can be compared with the built-in analyzer.
 */
export async function runAnalyze(ctx: Context, rawId: string | undefined, options: AnalyzeOptions): Promise<void> {
  if (options.stdin) {
    if (rawId !== undefined) throw new UsageError('give a thread id or --stdin, not both');
    return analyzeStdin(options, ctx);
  }
  if (rawId === undefined)
    throw new UsageError('missing the thread id', {
      hint: 'agent analyze <threadId>, or --stdin with a protocol object',
    });
  const threadId = checkThreadId(rawId);
  const deadline = commandDeadline(ctx.timing.now());
  const session = openSession(ctx, { deadline });
  const spinner = await ctx.output.spinner(`Fetching thread ${threadId}…`);
  let thread: Thread;
  let profile: Profile;
  try {
    [thread, profile] = await Promise.all([session.api.thread(threadId), session.api.profile()]);
  } finally {
    spinner.stop();
  }
  const { analyzer, keys } = await loadAnalyzer(ctx, {
    override: options.analyzer,
    secrets: [session.state.apiKey],
    deadline,
  });
  const trace: Trace = [];
  // The poll's rule (src/posting/skip-rule.ts): a cell that holds a key is skipped before any analyzer
  // reads it. A locked thread is still analyzed: what the analyzer makes of it is what analyze is asked for.
  const before = skipByThread({ ...thread, locked: false }, keys);
  // Sized as a poll would size it: by the cell's measured typical move where the record has one.
  const { decision } = await (before
    ? Promise.resolve({ decision: skipDecision(before) })
    : analyzeThread(analyzer, withTypicalMove(thread, typicalMoves(ctx)), profile, trace)
  )
    .catch((error: unknown) => {
      // Why it failed is what analyze is asked for: the steps up to the failure, then the error itself.
      for (const line of trace) ctx.output.warn(`  ${line}`);
      throw error;
    })
    .finally(() => analyzer.close?.());
  if (thread.locked) ctx.output.warn(`note: thread ${thread.id} is locked; a prediction on it would be refused`);
  const where = `${thread.id} (${thread.projectId})`;
  const verdict = decisionLine(decision, where, false);
  // What was read comes first: a script's or a model's trace says little about the thread itself.
  const price = thread.priceOnFetch === undefined ? '' : `, price ${thread.priceOnFetch}`;
  const header = `Thread ${where}, ${thread.timestamp}${price}: ${oneLine(thread.text, 200)}`;
  ctx.output.result([header, ...trace.map((line) => `  ${line}`), verdict], {
    threadId: thread.id,
    ...decisionJson(decision),
    trace,
  });
}

// The protocol's own default is the built-in analyzer: were it the configured one, a config whose
// command is `agent analyze --stdin` would run itself forever.
async function analyzeStdin(options: AnalyzeOptions, ctx: Context): Promise<void> {
  if (!ctx.readStdin) throw new UsageError('--stdin needs a standard input');
  const raw = await ctx.readStdin(STDIN_LIMIT_BYTES);
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    throw new UsageError('standard input is not one JSON object', {
      hint: 'see examples/README.md for the protocol',
    });
  }
  const input = parseInput(json);
  if ('error' in input) throw new UsageError(`standard input is not a protocol object (${input.error})`);
  const { analyzer } = await loadAnalyzer(ctx, { override: options.analyzer ?? 'builtin' });
  const { decision, trace } = await analyzeThread(analyzer, input.thread, input.profile).finally(() =>
    analyzer.close?.(),
  );
  for (const line of trace) ctx.output.detail(`  ${line}`);
  ctx.output.jsonLine(decisionJson(decision));
}
