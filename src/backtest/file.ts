import { readFileSync, statSync } from 'node:fs';
import * as z from 'zod/mini';
import { cellOf } from '../domain/thread.js';
import { UsageError } from '../errors.js';
import { oneLine } from '../output/sanitize.js';

// A backtest file (docs/backtest.md): JSON, either an array of resolved threads or {"threads": [...]}.
// Each thread is parsed on its own, tolerantly like a service answer (schemas.ts), so one bad entry in a
// long export is reported and left out rather than failing the whole run.

/** A resolved thread as read from the file: only the fields the backtest uses, in their wire names. */
export interface BacktestThread {
  id: string;
  project_id: string;
  text: string;
  timestamp: string;
  /** Epoch ms of `timestamp`, for ordering (an offset such as +02:00 is taken into account). */
  timestampMs: number;
  price_on_fetch: number;
  /** The price 3 hours after `timestamp`: the outcome, never shown to an analyzer. */
  price_on_eval: number;
  citations: { url?: string; title?: string }[];
}

/** An entry left out, with where it was and why. */
export interface InvalidThread {
  /** Position in the file's array, from 0. */
  index: number;
  id?: string;
  reason: string;
}

export interface BacktestFile {
  threads: BacktestThread[];
  invalid: InvalidThread[];
}

export const MAX_BACKTEST_FILE_BYTES = 50 * 1024 * 1024;
const MAX_PROJECT_ID = 100;

// Messages name the field and say what it must be: zod's own "Invalid input" would not help anyone.
const must = (what: string) => ({
  error: (issue: { input?: unknown }) => (issue.input === undefined ? 'is missing' : `must be ${what}`),
});

function threadSchema() {
  const id = z.pipe(
    z.union(
      [z.string().check(z.minLength(1, 'must be a non-empty string or a number')), z.number()],
      must('a non-empty string or a number'),
    ),
    z.transform(String),
  );
  const price = z.pipe(
    z.union([z.number(), z.string()], must('a number greater than 0')),
    z.transform((value, ctx) => {
      const n = typeof value === 'number' ? value : Number(value.trim() === '' ? Number.NaN : value);
      if (!(Number.isFinite(n) && n > 0))
        ctx.issues.push({ code: 'custom', message: 'must be a number greater than 0', input: value });
      return n;
    }),
  );
  const projectId = z.string(must('a string such as "c/bitcoin"')).check(
    z.maxLength(MAX_PROJECT_ID, `must be at most ${MAX_PROJECT_ID} characters`),
    z.refine((value) => cellOf(value) !== '', { message: 'must name a cell, e.g. "c/bitcoin"' }),
  );
  const instant = z
    .string(must('an ISO 8601 timestamp'))
    .check(z.refine((value) => Number.isFinite(Date.parse(value)), { message: 'must be an ISO 8601 timestamp' }));
  const text = z.catch(z.optional(z.string()), undefined);
  const citation = z.catch(z.looseObject({ url: text, title: text }), {});
  return z.looseObject(
    {
      id,
      project_id: projectId,
      text: z.string(must('a string')),
      timestamp: instant,
      price_on_fetch: price,
      price_on_eval: price,
      citations: z.catch(z.optional(z.array(citation)), undefined),
    },
    { error: 'not an object' },
  );
}

/** Reads and parses a backtest file; a file that cannot serve at all is a UsageError naming it. */
export function readBacktestFile(path: string, maxBytes = MAX_BACKTEST_FILE_BYTES): BacktestFile {
  const name = JSON.stringify(oneLine(path, 200));
  let text: string;
  try {
    const size = statSync(path).size;
    if (size > maxBytes) {
      throw new UsageError(
        `backtest file ${name} is ${megabytes(size)}, more than the ${megabytes(maxBytes)} a backtest reads`,
        {
          hint: 'split it into smaller files',
        },
      );
    }
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(
      `cannot read backtest file ${name}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
  let data: unknown;
  try {
    // Editors on Windows like to start a UTF-8 file with a byte-order mark, which JSON.parse refuses.
    data = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    throw new UsageError(`backtest file ${name} is not JSON: ${oneLine((error as Error).message, 120)}`);
  }
  return parseBacktestData(data, name);
}

/** The threads of an already-parsed document; `name` is how messages refer to it. */
export function parseBacktestData(data: unknown, name: string): BacktestFile {
  const entries = Array.isArray(data) ? data : isObject(data) && Array.isArray(data.threads) ? data.threads : undefined;
  if (entries === undefined) {
    throw new UsageError(`backtest file ${name} is neither an array of threads nor an object {"threads": [...]}`);
  }
  const schema = threadSchema();
  const threads: BacktestThread[] = [];
  const invalid: InvalidThread[] = [];
  const firstIndexOf = new Map<string, number>();
  entries.forEach((entry: unknown, index) => {
    const result = schema.safeParse(entry);
    if (!result.success) {
      invalid.push({ index, ...idOf(entry), reason: describeIssue(result.error.issues) });
      return;
    }
    const t = result.data;
    const first = firstIndexOf.get(t.id);
    if (first !== undefined) {
      invalid.push({ index, id: t.id, reason: `duplicate id: the thread at index ${first} has it and is kept` });
      return;
    }
    firstIndexOf.set(t.id, index);
    threads.push({
      id: t.id,
      project_id: t.project_id,
      text: t.text,
      timestamp: t.timestamp,
      timestampMs: Date.parse(t.timestamp),
      price_on_fetch: t.price_on_fetch,
      price_on_eval: t.price_on_eval,
      citations: (t.citations ?? []).map((c) => ({
        ...(c.url !== undefined ? { url: c.url } : {}),
        ...(c.title !== undefined ? { title: c.title } : {}),
      })),
    });
  });
  if (threads.length === 0) {
    const why = invalid[0] ? `; the first problem: index ${invalid[0].index}: ${invalid[0].reason}` : ': it is empty';
    throw new UsageError(`backtest file ${name} has no valid thread${why}`, {
      hint: 'see the file format in examples/README-backtest.md',
    });
  }
  return { threads, invalid };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The entry's id when it has a usable one, so the user can find it. */
function idOf(entry: unknown): { id?: string } {
  const id = isObject(entry) ? entry.id : undefined;
  return (typeof id === 'string' && id !== '') || (typeof id === 'number' && Number.isFinite(id))
    ? { id: oneLine(String(id), 80) }
    : {};
}

function describeIssue(issues: readonly { path: PropertyKey[]; message: string }[]): string {
  const issue = issues[0];
  if (!issue) return 'not a thread';
  if (issue.path.length === 0) return `not a thread: ${issue.message}`;
  return `${issue.path.map(String).join('.')}: ${oneLine(issue.message, 120)}`;
}

function megabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
