import type { Context } from '../context.js';
import { stateStore } from '../session.js';
import { AgentError, EXIT, messageOf, NotRegisteredError, StateError } from '../errors.js';
import { oneLine } from '../output/sanitize.js';
import { appendHistory } from './log.js';
import { maskEntry } from './mask.js';
import type { HistoryEntry } from './entry.js';

/**
 * Appends a run's records to the history in its config dir; a failure is said on stderr, never thrown.
 * Every field is masked like anything printed: a service may echo the key in any of them (a thread id, a
 * cell, an error), and it never reaches the file (key-never-shown).
 */
export function recordRun(ctx: Context, records: readonly HistoryEntry[]): void {
  const masked = records.map((record) => maskEntry(record, (text) => ctx.output.redact(text)));
  appendHistory(stateStore(ctx).dir, masked, (message) => ctx.output.warn(message));
}

/** No agent here, or a state file that cannot be trusted: nothing is written into that dir. */
export function isStateProblem(error: unknown): boolean {
  return error instanceof NotRegisteredError || error instanceof StateError;
}

export function exitCodeOf(error: unknown): number {
  return error instanceof AgentError ? error.exitCode : EXIT.unexpected;
}

/** A failed run's error as its history record keeps it: one line. */
export function recordedMessage(error: unknown): string {
  return oneLine(messageOf(error), 300);
}
