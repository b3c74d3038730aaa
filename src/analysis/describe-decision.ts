import type { Decision } from './types.js';

/** A decision as one line for a person: `Would post +0.7% on t1 (c/bitcoin): …` / `Skipped t1 …: reason`. */
export function decisionLine(decision: Decision, where: string, posted: boolean): string {
  if (decision.action === 'skip') return `${posted ? 'Skipped' : 'Would skip'} ${where}: ${decision.reason}`;
  const size = `${decision.conviction > 0 ? '+' : ''}${decision.conviction.toFixed(1)}%`;
  return `${posted ? 'Posted' : 'Would post'} ${size} on ${where}: ${decision.text}`;
}

/** The decision part of `predict --json` (docs/cli.md), shared by `analyze --json` and `analyze --stdin`. */
export function decisionJson(decision: Decision) {
  return decision.action === 'skip'
    ? { action: 'skip' as const, reason: decision.reason, skipKind: decision.skipKind }
    : { action: 'post' as const, conviction: decision.conviction, text: decision.text };
}
