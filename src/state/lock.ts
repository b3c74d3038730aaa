import { join } from 'node:path';
import { BusyError, LockLostError, NotRegisteredError } from '../errors.js';
import { CREATE_EXCLUSIVE, nodeFileOps, type FileOps } from './file-ops.js';
import { processAlive, readHolder, removeIfThere, takeGuard, tryToRemove } from './lock-file.js';
import { refuseForeignOwner, type RunningUser } from './owner.js';
import { fileSystemError } from './private-file.js';
import { shownPath } from '../output/sanitize.js';

/** A run never lasts this long (its budget is far shorter), so an older lock is stale even if its pid was reused. */
const STALE_AFTER_MS = 15 * 60_000;

export interface LockOptions {
  dir: string;
  pid: number;
  now: number;
  /** Whether a process with this pid exists; injected so tests can say "dead" without killing anything. */
  isAlive?: (pid: number) => boolean;
  files?: FileOps;
  /** Who this runs as: the lock is not written into another user's config dir. */
  user?: RunningUser;
  /** The time `confirm` renews the lock with; the system clock by default. */
  clock?: () => number;
  /** Tells this holding apart from every other (the fencing token); random by default. */
  token?: string;
}

export interface Lock {
  release(): void;
  /**
   * Throws LockLostError unless the lock is still this run's, and renews it. Called right before and right
   * after every state write: a run stopped for longer than STALE_AFTER_MS (Ctrl-Z, SIGSTOP, a suspended
   * machine) may have lost its lock to another run meanwhile, and must then write nothing more.
   */
  confirm(): void;
}

/**
 * One state-changing run at a time per config dir (one-writer). The lock file is created with O_EXCL; a lock
 * whose holder is dead (or that is older than any run can be) is taken over. Taking over happens under a
 * second O_EXCL file, so only one run at a time may remove a lock, and only the very file it found stale
 * (same content, same inode, same time: not renewed since by a holder that woke up): without that, three
 * runs racing over one stale lock could end with two holders, one having removed the fresh lock of another.
 */
export function acquireLock({
  dir,
  pid,
  now,
  isAlive = processAlive,
  files = nodeFileOps,
  user,
  clock = Date.now,
  token = Math.random().toString(36).slice(2),
}: LockOptions): Lock {
  const file = join(dir, 'lock');
  refuseForeignDir(dir, user, files);
  for (let attempt = 0; attempt < 3; attempt++) {
    let fd: number | undefined;
    try {
      fd = files.openSync(file, CREATE_EXCLUSIVE, 0o600);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // No config dir means nobody registered here: say so (exit 3), not "unexpected error: ENOENT".
      if (code === 'ENOENT')
        throw new NotRegisteredError(`no agent is registered in ${shownPath(dir)}`, {
          hint: 'run "agent register" first',
        });
      if (code !== 'EEXIST') throw fileSystemError('create the lock file', file, error);
    }
    if (fd !== undefined) {
      const mine = JSON.stringify({ pid, startedAt: new Date(now).toISOString(), token });
      return holdLock(file, fd, mine, { files, clock });
    }
    const holder = readHolder(file, files);
    if (!holder) continue; // released between our open and read: try again
    const age = now - holder.mtimeMs;
    const stale = holder.pid === undefined ? age > 10_000 : !isAlive(holder.pid) || age > STALE_AFTER_MS;
    if (!stale) {
      throw new BusyError(
        `another agent run (pid ${holder.pid ?? 'unknown'}, a poll from cron?) holds ${file}; this run did nothing`,
        {
          hint: 'try again in a moment',
        },
      );
    }
    const guard = `${file}.takeover`;
    if (!takeGuard(guard, now, files)) continue; // another run is taking it over right now
    try {
      const again = readHolder(file, files);
      // The very file judged stale, and not renewed since: a holder that woke and renewed it keeps it.
      if (again && again.raw === holder.raw && again.ino === holder.ino && again.mtimeMs === holder.mtimeMs)
        removeIfThere(file, files);
    } catch (error) {
      tryToRemove(guard, files); // the lock's own failure is the one to report
      throw error;
    }
    removeIfThere(guard, files);
  }
  throw new BusyError(`could not take the lock ${file}; another run keeps taking it`, {
    hint: 'try again in a moment',
  });
}

// The lock is the first thing a run writes, and a dir that cannot be read is reported by the open below.
function refuseForeignDir(dir: string, user: RunningUser | undefined, files: FileOps): void {
  if (!user) return;
  let stat: ReturnType<FileOps['statSync']>;
  try {
    stat = files.statSync(dir);
  } catch {
    return;
  }
  refuseForeignOwner(dir, stat, user, 'the config directory', dir);
}

/**
 * The lock file is ours (created by this run): it names us with a token no other holding has, and is
 * removed again on release.
 */
function holdLock(
  file: string,
  fd: number,
  mine: string,
  { files, clock }: { files: FileOps; clock: () => number },
): Lock {
  try {
    try {
      // writeFileSync, not writeSync: it loops until every byte is written, and a lock cut short would
      // never match `mine` on release.
      files.writeFileSync(fd, mine);
    } finally {
      files.closeSync(fd);
    }
  } catch (error) {
    // A lock naming nobody would turn other runs away for 10 s: this run did nothing, so it leaves none.
    tryToRemove(file, files);
    throw fileSystemError('write the lock file', file, error);
  }
  return {
    release() {
      // Only our own lock is removed, should anything ever have replaced it. Best effort: the run's
      // outcome stands, and a lock left behind names a pid that is gone, so the next run takes it over
      // (and says what is wrong if it cannot remove it either).
      try {
        if (readHolder(file, files)?.raw === mine) removeIfThere(file, files);
      } catch {
        // see above
      }
    },
    confirm() {
      // Renewed first, then read: a run that looks at the lock after this finds it fresh and leaves it
      // alone; one that found it stale just before and takes it over anyway is seen by the read, or by the
      // confirm after the write.
      const at = clock() / 1000;
      try {
        files.utimesSync(file, at, at);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
          throw fileSystemError('renew the lock file', file, error);
      }
      if (readHolder(file, files)?.raw !== mine) {
        throw new LockLostError(
          `this run's lock ${file} was taken over by another run while this one was stopped or stuck (over ${STALE_AFTER_MS / 60_000} minutes); this run stops here and writes or sends nothing more`,
          { hint: 'the run that took over does the work; nothing to do' },
        );
      }
    },
  };
}
