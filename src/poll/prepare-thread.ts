import { analyzeThread, type Analyzer } from '../analysis/index.js';
import type { DecidedBy, Decision } from '../analysis/types.js';
import type { Profile } from '../domain/profile.js';
import type { Thread } from '../domain/thread.js';
import { AnalyzerConfigError, EXIT, messageOf } from '../errors.js';
import { oneLine } from '../output/sanitize.js';
import type { Outcome, ToPost } from '../posting/outcome.js';
import { skipByThread } from '../posting/skip-rule.js';
import type { JournalEntry } from '../state/schema.js';

export interface PrepareDeps {
  /** Absent while a run has met only locked threads: they need no analysis. */
  analyzer: Analyzer | undefined;
  profile: Profile | undefined;
  dryRun: boolean;
  /** This agent's keys: a thread whose cell holds one is skipped before any analyzer reads it. */
  keys: readonly string[];
  trace: (line: string) => void;
}

/** Everything before the POST: never throws, and never sends anything. */
export async function prepareThread(
  thread: Thread,
  previous: JournalEntry | undefined,
  deps: PrepareDeps,
): Promise<Outcome | ToPost> {
  if (previous?.status === 'posting') {
    // A run died between "about to post" and "posted": that post may have landed, and a doubled
    // prediction is worse than a missed one (never-twice).
    return {
      kind: 'unknown',
      error: 'an earlier run was interrupted while posting on it; not posted again in case that post landed',
    };
  }
  const skip = skipByThread(thread, deps.keys);
  if (skip) return { kind: 'skipped', ...skip };
  if (!deps.analyzer || !deps.profile) throw new Error(`bug: thread ${thread.id} is open but no analyzer was loaded`);
  let decision: Decision;
  let by: DecidedBy | undefined;
  try {
    const analyzed = await analyzeThread(deps.analyzer, thread, deps.profile);
    for (const line of analyzed.trace) deps.trace(line);
    ({ decision, by } = analyzed);
  } catch (error) {
    if (error instanceof AnalyzerConfigError) return { kind: 'stop', error };
    return {
      kind: 'failed',
      error: `analysis failed: ${oneLine(messageOf(error), 200)}`,
      retry: true,
      exitCode: EXIT.temporary,
    };
  }
  const decided = by ? { by } : {};
  if (decision.action === 'skip')
    return { kind: 'skipped', skipKind: decision.skipKind, reason: decision.reason, ...decided };
  if (deps.dryRun)
    return { kind: 'posted', conviction: decision.conviction, text: decision.text, predictionId: null, ...decided };
  return { kind: 'post', conviction: decision.conviction, text: decision.text, ...decided };
}
