import type { Profile } from '../domain/profile.js';
import type { Thread } from '../domain/thread.js';
import { decide } from './policy.js';
import type { Analyser, Decision, Trace } from './types.js';

export { builtinAnalyser } from './builtin.js';
export { decide } from './policy.js';
export { fitText } from './summary-text.js';
export type { Analyser, AnalyserOutput, Decision, Evidence, Signal, Trace } from './types.js';

/**
 * Reads one thread with the given analyser, then applies the policy; the trace records both. A caller
 * that passes its own trace keeps the steps taken before an analyser failed.
 */
export async function analyseThread(
  analyser: Analyser,
  thread: Thread,
  profile: Profile,
  trace: Trace = [],
): Promise<{ decision: Decision; trace: Trace }> {
  trace.push(`analyser: ${analyser.name}`);
  const output = await analyser.analyse(thread, profile, trace);
  return { decision: decide(thread, profile, output, trace), trace };
}
