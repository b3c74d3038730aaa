import type { AnalyzerKind } from '../analysis/types.js';
import { HISTORY_KIND, type HistoryKind } from '../domain/fate.js';
import { isSkipKind, type SkipKind, skipKindOfReason } from '../domain/skip.js';

/** The service's counters at one moment: what stats draws over time. */
export interface Counters {
  honey: number;
  wax: number;
  predictions: number;
}

/**
 * One run, summed up: what `doctor` reads for "the last poll" and `stats` for runs and snapshots. Its
 * counts are the tallies of src/domain/fate.ts.
 */
export interface RunSummary {
  command: 'poll' | 'predict';
  posted: number;
  skipped: number;
  failed: number;
  /** Threads met already locked: counted here, not one record each (a long gap meets thousands). */
  locked?: number;
  exitCode: number;
  elapsedMs: number;
  error?: string;
  counters?: Counters;
}

/** An alert sent (src/alert/), or a heartbeat that failed: what each route answered. */
export interface AlertSent {
  event: string;
  routes: Array<{ route: string; ok: boolean; answer: string }>;
}

/**
 * One line of the history: a thread's fate in history.jsonl's words (`HISTORY_KIND`: a post, a skip with
 * its reason, a failure with its error as the reason), a run's summary, or an alert (the failed routes' answers as the reason). Lines written by a later
 * version may carry more fields; they are kept.
 */
export interface HistoryEntry {
  ts: string;
  kind: HistoryKind | 'run' | 'alert';
  threadId?: string;
  cell?: string;
  conviction?: number;
  text?: string;
  reason?: string;
  /**
   * On a skip, its kind (src/domain/skip.ts). Lines written before skips had kinds have only the reason:
   * read them with `skipKindOf`.
   */
  skipKind?: string;
  /** On a post or a skip an analyzer decided: which one, and whether it was the fallback. */
  analyzer?: AnalyzerKind;
  fallback?: true;
  summary?: RunSummary;
  alert?: AlertSent;
}

/**
 * A skip's kind, whichever version wrote its line: the kind it names, or the kind its reason's words map
 * to (`other` for a kind this version does not know, or words no kind has).
 */
export function skipKindOf(record: Pick<HistoryEntry, 'skipKind' | 'reason'>): SkipKind {
  if (isSkipKind(record.skipKind)) return record.skipKind;
  return record.skipKind === undefined ? skipKindOfReason(record.reason ?? '') : 'other';
}

const KINDS = new Set<string>([...Object.values(HISTORY_KIND), 'run', 'alert']);

/**
 * A parsed line as a record, or undefined when it is not one. Checked field by field by hand rather than
 * by a zod schema: stats reads a month of lines (~11,000) on every call, and the schema took most of
 * its time there.
 */
export function parseRecord(value: unknown): HistoryEntry | undefined {
  if (!isObject(value) || typeof value.ts !== 'string' || !KINDS.has(value.kind as string)) return undefined;
  if (!Number.isFinite(Date.parse(value.ts))) return undefined;
  for (const field of ['threadId', 'cell', 'text', 'reason', 'skipKind', 'analyzer'] as const) {
    if (value[field] !== undefined && typeof value[field] !== 'string') return undefined;
  }
  if (value.fallback !== undefined && value.fallback !== true) return undefined;
  if (value.conviction !== undefined && !isNumber(value.conviction)) return undefined;
  if (value.summary !== undefined && !isSummary(value.summary)) return undefined;
  if (value.alert !== undefined && !isAlert(value.alert)) return undefined;
  if (value.kind === 'alert' && value.alert === undefined) return undefined;
  return value as unknown as HistoryEntry;
}

function isAlert(value: unknown): value is AlertSent {
  if (!isObject(value) || typeof value.event !== 'string' || !Array.isArray(value.routes)) return false;
  return value.routes.every(
    (route) =>
      isObject(route) &&
      typeof route.route === 'string' &&
      typeof route.ok === 'boolean' &&
      typeof route.answer === 'string',
  );
}

function isSummary(value: unknown): value is RunSummary {
  if (!isObject(value) || (value.command !== 'poll' && value.command !== 'predict')) return false;
  for (const field of ['posted', 'skipped', 'failed', 'exitCode', 'elapsedMs'] as const)
    if (!isNumber(value[field])) return false;
  if (value.locked !== undefined && !isNumber(value.locked)) return false;
  if (value.error !== undefined && typeof value.error !== 'string') return false;
  const counters = value.counters;
  if (counters === undefined) return true;
  return isObject(counters) && isNumber(counters.honey) && isNumber(counters.wax) && isNumber(counters.predictions);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}
