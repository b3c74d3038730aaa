import { fromDisk, raise, type FromDisk } from './keep-from-disk.js';
import type { Lock } from './lock.js';
import type { State } from './schema.js';
import { serializeState, type StateStore } from './state-store.js';

/**
 * The state of a run that holds the lock: every change the run makes goes through here, and each is
 * written only if it differs from what is on disk now. Comparing with what the run read at its start
 * instead once skipped the last write of a run whose earlier write (a "posting" mark) had changed the
 * file, and left that mark to be read as "interrupted" by the next run.
 *
 * Every write is fenced by the lock (one-writer): refused with LockLostError once another run has taken
 * the lock over, checked right before the rename and again right after it. And should the file have
 * changed behind this run's back all the same, what it says of posts, the cursor and a pause is kept
 * (keep-from-disk.ts): the cursor never moves back.
 */
export interface HeldState {
  readonly current: State;
  /** Merges `patch` into the state and writes it (atomically) unless the file already says the same. */
  update(patch: Partial<State>): void;
}

export function holdState(
  store: StateStore,
  initial: State,
  lock: Pick<Lock, 'confirm'>,
  options: { dryRun?: boolean } = {},
): HeldState {
  let current = initial;
  // Serialized only when a change needs comparing: a week's journal takes milliseconds to serialize, and a
  // run that changes nothing (a watcher's idle cycle) should not pay for it.
  let onDisk: string | undefined;
  // The file as this run last read or wrote it: one stat tells whether anything else wrote it since.
  let seen = store.stamp();
  let kept: FromDisk | undefined;
  // The "posting" marks this run wrote, as written: found again on a changed disk, they are its own.
  const ownMarks = new Map<string, string>();
  return {
    get current() {
      return current;
    },
    update(patch) {
      // Only plain values can be told unchanged this way: the journal is a Map the poll ledger changes in
      // place and hands over again, and its "posting" marks must reach the disk.
      const same = (Object.keys(patch) as Array<keyof State>).every(
        (key) => patch[key] === current[key] && (typeof patch[key] !== 'object' || patch[key] === null),
      );
      if (same) return;
      onDisk ??= serializeState(current);
      current = { ...current, ...patch };
      if (options.dryRun) return;
      const stamp = store.stamp();
      if (stamp !== seen) {
        const disk = store.read();
        if (disk) kept = fromDisk(disk, kept);
        onDisk = undefined;
      }
      if (kept) current = raise(current, kept, ownMarks);
      const text = serializeState(current);
      if (text === onDisk) return;
      store.write(current, text, () => lock.confirm());
      for (const [id, entry] of current.journal ?? [])
        if (entry.status === 'posting') ownMarks.set(id, JSON.stringify(entry));
      onDisk = text;
      seen = store.stamp();
    },
  };
}
