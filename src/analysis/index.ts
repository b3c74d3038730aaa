import type { Profile } from '../domain/profile.js';
import type { Thread } from '../domain/thread.js';
import { decide } from './policy.js';
import {
  ANALYZER_KINDS,
  type Analyzer,
  type AnalyzerKind,
  type Decision,
  type DecidedBy,
  type Trace,
} from './types.js';

export { builtinAnalyzer } from './builtin.js';
export { decide } from './policy.js';
export { fitText } from './summary-text.js';
export type { Analyzer, AnalyzerOutput, DecidedBy, Decision, Evidence, Signal, Trace } from './types.js';

/**
 * Reads one thread with the given analyzer, then applies the policy; the trace records both, and `by`
 * which analyzer decided (when it is one of ours). A caller that passes its own trace keeps the steps
 * taken before an analyzer failed.
 */
export async function analyzeThread(
  analyzer: Analyzer,
  thread: Thread,
  profile: Profile,
  trace: Trace = [],
): Promise<{ decision: Decision; trace: Trace; by?: DecidedBy }> {
  trace.push(`analyzer: ${analyzer.name}`);
  const output = await analyzer.analyze(thread, profile, trace);
  const by =
    output.decidedBy ??
    ((ANALYZER_KINDS as readonly string[]).includes(analyzer.name)
      ? { analyzer: analyzer.name as AnalyzerKind }
      : undefined);
  return { decision: decide(thread, profile, output, trace), trace, ...(by ? { by } : {}) };
}
