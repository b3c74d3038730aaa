import { SKIP_KINDS, type SkipKind } from '../../domain/skip.js';
import { type HistoryEntry, skipKindOf } from '../../history/entry.js';

export interface Stats {
  from: string;
  to: string;
  /** `failed`: runs that ended with an error, both kinds; a failed predict by hand is not a failed poll. */
  runs: { poll: number; predict: number; failed: number; failedPolls: number; failedPredicts: number };
  posts: number;
  /** Mean size of the posted convictions, in %: how boldly the agent predicts. */
  meanAbsConviction: number | null;
  /**
   * Each kind once (src/domain/skip.ts), most frequent first, its `reason` the kind's words: the counts add
   * up to `total`. A skip's own reason, with its numbers, is in `agent history`.
   */
  skips: { total: number; locked: number; byReason: Array<{ skipKind: SkipKind; reason: string; count: number }> };
  failures: number;
  cells: Array<{ cell: string; posts: number; skips: number; meanAbsConviction: number | null }>;
  /** Posts per day, oldest first, one entry for every day of the period. */
  postsPerDay: Array<{ day: string; posts: number }>;
  /** The service's counters as the hourly snapshots saw them, oldest first. */
  counters: Array<{ ts: string; honey: number; wax: number; predictions: number }>;
}

const DAY_MS = 86_400_000;
/** Kinds as frequent as each other are listed in the order of the rule. */
const ORDER = Object.keys(SKIP_KINDS);

/** The history from `from` to `to` (epoch ms), summed up. One pass; no record is kept but the counters. */
export function aggregate(records: readonly HistoryEntry[], from: number, to: number): Stats {
  const runs = { poll: 0, predict: 0, failed: 0, failedPolls: 0, failedPredicts: 0 };
  const kinds = new Map<SkipKind, number>();
  const count = (kind: SkipKind, n = 1) => kinds.set(kind, (kinds.get(kind) ?? 0) + n);
  const cells = new Map<string, { posts: number; skips: number; sizes: number }>();
  const days = new Map<string, number>();
  const counters: Stats['counters'] = [];
  let posts = 0;
  let sizes = 0;
  let skips = 0;
  let locked = 0;
  let failures = 0;
  const cell = (name: string | undefined) => {
    const key = name ?? '(unknown)';
    let entry = cells.get(key);
    if (!entry) {
      entry = { posts: 0, skips: 0, sizes: 0 };
      cells.set(key, entry);
    }
    return entry;
  };
  for (const record of records) {
    const at = Date.parse(record.ts);
    if (!(at >= from && at <= to)) continue;
    if (record.kind === 'post') {
      posts += 1;
      sizes += Math.abs(record.conviction ?? 0);
      const c = cell(record.cell);
      c.posts += 1;
      c.sizes += Math.abs(record.conviction ?? 0);
      const day = record.ts.slice(0, 10);
      days.set(day, (days.get(day) ?? 0) + 1);
    } else if (record.kind === 'skip') {
      skips += 1;
      count(skipKindOf(record));
      cell(record.cell).skips += 1;
    } else if (record.kind === 'fail') {
      failures += 1;
    } else if (record.summary) {
      runs[record.summary.command] += 1;
      if (record.summary.exitCode !== 0) {
        runs.failed += 1;
        if (record.summary.command === 'poll') runs.failedPolls += 1;
        else runs.failedPredicts += 1;
      }
      locked += record.summary.locked ?? 0;
      if (record.summary.counters) counters.push({ ts: record.ts, ...record.summary.counters });
    }
  }
  if (locked) count('locked', locked);
  const postsPerDay: Stats['postsPerDay'] = [];
  for (let day = Date.parse(new Date(from).toISOString().slice(0, 10)); day <= to; day += DAY_MS) {
    const key = new Date(day).toISOString().slice(0, 10);
    postsPerDay.push({ day: key, posts: days.get(key) ?? 0 });
  }
  return {
    from: new Date(from).toISOString(),
    to: new Date(to).toISOString(),
    runs,
    posts,
    meanAbsConviction: posts ? round(sizes / posts) : null,
    skips: {
      total: skips + locked,
      locked,
      byReason: [...kinds]
        .map(([skipKind, n]) => ({ skipKind, reason: SKIP_KINDS[skipKind], count: n }))
        .sort((a, b) => b.count - a.count || ORDER.indexOf(a.skipKind) - ORDER.indexOf(b.skipKind)),
    },
    failures,
    cells: [...cells]
      .map(([name, c]) => ({
        cell: name,
        posts: c.posts,
        skips: c.skips,
        meanAbsConviction: c.posts ? round(c.sizes / c.posts) : null,
      }))
      .sort((a, b) => b.posts - a.posts || b.skips - a.skips || a.cell.localeCompare(b.cell)),
    postsPerDay,
    counters,
  };
}

function round(n: number): number {
  return Math.round(n * 100) / 100;
}
