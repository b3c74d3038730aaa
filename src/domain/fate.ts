/**
 * What became of a thread: the one set of words for it, from the POST's outcome (`Outcome`,
 * posting/outcome.ts) through the journal, the poll's report and the history. Three of those are
 * formats others read (state.json, `poll --json`, history.jsonl) and keep older words: each is mapped
 * here, once, and nowhere else.
 *
 * In the domain layer because the state file's schema (parts layer) names these words as much as
 * posting, poll and history (work layer) do, and this is the layer all of them may import.
 */

/** Done with and posted; done with and not posted; not done (it may be tried again) or given up; maybe posted. */
export type Fate = 'posted' | 'skipped' | 'failed' | 'unknown';

/**
 * The journal's words in state.json: the fates, as they are, and `posting`, the mark written before the
 * POST leaves (never-twice). In the order a state error lists them.
 */
export const JOURNAL_STATUSES = ['posting', 'posted', 'unknown', 'skipped', 'failed'] as const satisfies readonly (
  | Fate
  | 'posting'
)[];
export type JournalStatus = (typeof JOURNAL_STATUSES)[number];

/**
 * Where a fate is counted: the lists of `poll --json` and the counts of a run's summary in the history.
 * An unknown outcome is counted as a failure there, as its exit code (5) says.
 */
export type Tally = 'posted' | 'skipped' | 'failed';
export const TALLY: Readonly<Record<Fate, Tally>> = {
  posted: 'posted',
  skipped: 'skipped',
  failed: 'failed',
  unknown: 'failed',
};

/**
 * A thread's line in history.jsonl says its fate in the words lines have always used, so that files
 * written by every version read alike. An unknown outcome is a `fail` line, its reason saying why.
 */
export type HistoryKind = 'post' | 'skip' | 'fail';
export const HISTORY_KIND: Readonly<Record<Fate, HistoryKind>> = {
  posted: 'post',
  skipped: 'skip',
  failed: 'fail',
  unknown: 'fail',
};
