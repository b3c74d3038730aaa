import fs from 'node:fs';
import type { Stats } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { StateError } from '../errors.js';
import { CREATE_EXCLUSIVE, nodeFileOps, type FileOps } from './file-ops.js';
import { refuseForeignOwner, type RunningUser } from './owner.js';
import { shownPath } from '../output/sanitize.js';
import { configDirShown, noChangeOfDir } from './dir-fix.js';

// Files in the config dir are private: the state holds the key (key-at-rest), and config.json names a command
// that every cron run executes, so whoever can change it can run code as this user.

export const DIR_MODE = 0o700;
export const FILE_MODE = 0o600;
const STALE_TEMP_MS = 15 * 60_000;

/**
 * Refuses a file or directory that other users could read or change, naming the chmod that fixes it; for a
 * directory, the one it resolves to, and no chmod at all of a system directory or another user's (`uid`:
 * who this runs as, when known).
 */
export function refuseLooseMode(
  target: string,
  stat: Stats,
  wanted: number,
  kind: string,
  risk: string,
  uid?: number,
): void {
  if ((stat.mode & 0o077) === 0) return;
  const mode = (stat.mode & 0o777).toString(8);
  const { shown, real } = stat.isDirectory() ? configDirShown(target) : { shown: shownPath(target), real: target };
  const hint =
    (stat.isDirectory() && noChangeOfDir(target, real, stat, uid)) || `run: chmod ${wanted.toString(8)} '${real}'`;
  throw new StateError(`${kind} ${shown} has mode ${mode}: other users could ${risk}`, 'exposed', { hint });
}

/**
 * A file of the config dir opened by hand with a mode others can read (history.jsonl made with an editor)
 * is made private again rather than refused: it is the user's own file, and refusing it would stop what
 * it records for good. The history and the record's files follow this one rule; a file this user cannot
 * chmod (another user's) is refused, naming the fix.
 */
export function keepOpenFilePrivate(fd: number, target: string, kind: string): void {
  const stat = fs.fstatSync(fd);
  if ((stat.mode & 0o077) === 0) return;
  try {
    fs.fchmodSync(fd, FILE_MODE);
  } catch {
    refuseLooseMode(target, stat, FILE_MODE, kind, 'read it');
  }
}

const FILE_SYSTEM_HINTS: Record<string, string> = {
  EACCES: 'check that the config directory and its files belong to the user this runs as (cron: the crontab owner)',
  EPERM: 'check that the config directory and its files belong to the user this runs as (cron: the crontab owner)',
  EROFS: 'the file system is read-only',
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is used up',
  EFBIG: 'the file is larger than this process may write (see ulimit -f)',
};

/**
 * A failed file operation in the config dir, said as what it is: not "unexpected error … a bug", but what
 * could not be done to which file, the system's code, and what to check (key-at-rest files are private, so a
 * config dir made by another user, e.g. with sudo, is the usual cause).
 */
export function fileSystemError(action: string, target: string, error: unknown): unknown {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  // Anything else (a StateError already, or a bug) goes on as it is.
  if (error instanceof StateError || typeof code !== 'string') return error;
  const hint = Object.hasOwn(FILE_SYSTEM_HINTS, code) ? FILE_SYSTEM_HINTS[code] : undefined;
  return new StateError(`cannot ${action} ${shownPath(target)} (${code})`, 'io', { hint, cause: error });
}

/** Creates the directory (mode 700) if needed; refuses one others can open (key-at-rest) or another user owns. */
export function preparePrivateDir(dir: string, files: FileOps = nodeFileOps, user?: RunningUser): void {
  let stat: Stats;
  try {
    // mkdir applies the mode at creation, so the directory is never open even for an instant.
    files.mkdirSync(dir, { recursive: true, mode: DIR_MODE });
    stat = files.statSync(dir);
  } catch (error) {
    // EEXIST here means a file stands where the directory should be.
    throw fileSystemError('create the config directory', dir, error);
  }
  if (!stat.isDirectory()) throw new StateError(`${shownPath(dir)} is not a directory`, 'io');
  refuseForeignOwner(dir, stat, user, 'the config directory', dir);
  refuseLooseMode(dir, stat, DIR_MODE, 'the config directory', 'read or change the API key', user?.uid);
}

let writes = 0;

/**
 * Atomic and private: readers see the complete old or the complete new file, never a part (state-intact), and the
 * content is never on disk with a looser mode than 600, not even for an instant.
 */
export function writePrivateFile(
  target: string,
  content: string,
  options: { beforeRename?: () => void; afterRename?: () => void; files?: FileOps } = {},
): void {
  try {
    writeFileAtomic(target, content, { ...options, mode: FILE_MODE });
  } catch (error) {
    throw fileSystemError('write', target, error);
  }
}

/** Atomic, with the file created in its final mode (before the umask): the sandbox's files use it too. */
export function writeFileAtomic(
  target: string,
  content: string,
  options: { mode: number; beforeRename?: () => void; afterRename?: () => void; files?: FileOps },
): void {
  const files = options.files ?? nodeFileOps;
  const temp = tempFor(target);
  // Created with its final mode (never write-then-chmod), exclusively, in the same directory so the rename is atomic.
  const fd = files.openSync(temp, CREATE_EXCLUSIVE, options.mode);
  try {
    // writeFileSync loops until every byte is written; one writeSync may write fewer (disk full).
    files.writeFileSync(fd, content);
    files.fsyncSync(fd);
  } catch (error) {
    files.closeSync(fd);
    files.rmSync(temp, { force: true });
    throw error;
  }
  files.closeSync(fd);
  moveIntoPlace(temp, target, files, options.beforeRename, options.afterRename);
}

/** A private file whose disk space is taken before its content is known (`reservePrivateFile`). */
export interface ReservedFile {
  /** Writes the content over the reserved space and renames it into place, as atomic as writePrivateFile. */
  commit(content: string): void;
  /** Gives the space back: nothing is written. */
  abandon(): void;
}

/**
 * Creates the temp file of a later write now, `bytes` long, mode 600 and flushed, so that a disk too full
 * for it is found out before the content exists: at registration, before the service issues a key that
 * could then not be stored. The content later overwrites these blocks in place, so it needs no new ones
 * (up to `bytes`, on file systems that write in place).
 */
export function reservePrivateFile(
  target: string,
  bytes: number,
  options: { beforeRename?: () => void; files?: FileOps } = {},
): ReservedFile {
  const files = options.files ?? nodeFileOps;
  const temp = tempFor(target);
  let created = false;
  const fail = (error: unknown) => {
    if (created) files.rmSync(temp, { force: true });
    return fileSystemError('write', target, error);
  };
  try {
    const fd = files.openSync(temp, CREATE_EXCLUSIVE, FILE_MODE);
    created = true;
    try {
      files.writeFileSync(fd, Buffer.alloc(bytes, 0x20));
      files.fsyncSync(fd);
    } finally {
      files.closeSync(fd);
    }
  } catch (error) {
    throw fail(error);
  }
  return {
    commit(content) {
      try {
        // Opened without truncating, so the write starts at byte 0 over the reserved blocks; the rest of
        // the reservation is cut off after it.
        const fd = files.openSync(temp, 'r+');
        try {
          files.writeFileSync(fd, content);
          files.ftruncateSync(fd, Buffer.byteLength(content));
          files.fsyncSync(fd);
        } finally {
          files.closeSync(fd);
        }
      } catch (error) {
        throw fail(error);
      }
      try {
        moveIntoPlace(temp, target, files, options.beforeRename);
      } catch (error) {
        throw fileSystemError('write', target, error);
      }
    },
    abandon: () => files.rmSync(temp, { force: true }),
  };
}

// Unique per process and write; O_EXCL refuses a name that exists anyway (no crypto needed on the cron path).
function tempFor(target: string): string {
  return join(dirname(target), `${tempPrefix(target)}${process.pid}.${++writes}.${Date.now().toString(36)}.tmp`);
}

function tempPrefix(target: string): string {
  return `.${basename(target)}.`;
}

function moveIntoPlace(
  temp: string,
  target: string,
  files: FileOps,
  beforeRename: (() => void) | undefined,
  afterRename?: () => void,
): void {
  try {
    // A write refused here (the lock lost) leaves no temp file holding the key behind.
    beforeRename?.();
    files.renameSync(temp, target);
  } catch (error) {
    files.rmSync(temp, { force: true });
    throw error;
  }
  try {
    // At once: a run stopped between the rename and this check may have lost its lock meanwhile, and the
    // run that took over may read what was just renamed in; nothing slow (the dir's fsync) comes between.
    afterRename?.();
  } finally {
    syncDir(dirname(target), files);
    removeStaleTemps(dirname(target), tempPrefix(target), files);
  }
}

// A run killed between creating its temp file and renaming it leaves one behind (mode 600, maybe holding
// the key): removed by a later write once it is older than any run can be.
function removeStaleTemps(dir: string, prefix: string, files: FileOps): void {
  const now = Date.now();
  let names: string[];
  try {
    names = files.readdirSync(dir);
  } catch {
    return; // the write itself is done and durable: tidying up can wait for the next one
  }
  for (const name of names) {
    if (!name.startsWith(prefix) || !name.endsWith('.tmp')) continue;
    const file = join(dir, name);
    try {
      if (now - files.statSync(file).mtimeMs > STALE_TEMP_MS) files.unlinkSync(file);
    } catch {
      // gone already, or not ours to remove
    }
  }
}

// The rename is durable only once the directory entry is; some platforms cannot fsync a directory.
function syncDir(dir: string, files: FileOps): void {
  let fd: number | undefined;
  try {
    fd = files.openSync(dir, 'r');
    files.fsyncSync(fd);
  } catch {
    // best effort
  } finally {
    if (fd !== undefined) files.closeSync(fd);
  }
}
