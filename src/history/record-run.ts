import { type Context, stateStore } from '../context.js';
import { AgentError, EXIT, NotRegisteredError, StateError } from '../errors.js';
import { oneLine } from '../output/sanitize.js';
import { appendHistory } from './log.js';
import type { HistoryRecord } from './record.js';

/**
 * Appends a run's records to the history in its config dir; a failure is said on stderr, never thrown.
 * Text that came from elsewhere (a service's error, a reason) is masked like anything printed: the key
 * never reaches the file (key-never-shown).
 */
export function recordRun(ctx: Context, records: readonly HistoryRecord[]): void {
  const mask = (text: string | undefined) => (text === undefined ? undefined : ctx.output.redact(text));
  const masked = records.map((record) => ({
    ...record,
    ...(record.text === undefined ? {} : { text: mask(record.text) }),
    ...(record.reason === undefined ? {} : { reason: mask(record.reason) }),
    ...(record.summary?.error === undefined
      ? {}
      : { summary: { ...record.summary, error: mask(record.summary.error) } }),
  }));
  appendHistory(stateStore(ctx).dir, masked, (message) => ctx.output.warn(message));
}

/** No agent here, or a state file that cannot be trusted: nothing is written into that dir. */
export function isStateProblem(error: unknown): boolean {
  return error instanceof NotRegisteredError || error instanceof StateError;
}

export function exitCodeOf(error: unknown): number {
  return error instanceof AgentError ? error.exitCode : EXIT.unexpected;
}

export function messageOf(error: unknown): string {
  return oneLine(error instanceof Error ? error.message : String(error), 300);
}
