import type { Stats } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { StateError } from '../errors.js';
import { CREATE_EXCLUSIVE, nodeFileOps, type FileOps } from './file-ops.js';

// Files in the config dir are private: the state holds the key (S2), and config.json names a command
// that every cron run executes, so whoever can change it can run code as this user.

export const DIR_MODE = 0o700;
export const FILE_MODE = 0o600;
const STALE_TEMP_MS = 15 * 60_000;

/** Refuses a file or directory that other users could read or change, naming the chmod that fixes it. */
export function refuseLooseMode(target: string, stat: Stats, wanted: number, kind: string, risk: string): void {
  if ((stat.mode & 0o077) === 0) return;
  const mode = (stat.mode & 0o777).toString(8);
  throw new StateError(`${kind} ${target} has mode ${mode}: other users could ${risk}`, 'exposed', {
    hint: `run: chmod ${wanted.toString(8)} '${target}'`,
  });
}

const FILE_SYSTEM_HINTS: Record<string, string> = {
  EACCES: 'check that the config directory and its files belong to the user this runs as (cron: the crontab owner)',
  EPERM: 'check that the config directory and its files belong to the user this runs as (cron: the crontab owner)',
  EROFS: 'the file system is read-only',
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is used up',
};

/**
 * A failed file operation in the config dir, said as what it is: not "unexpected error … a bug", but what
 * could not be done to which file, the system's code, and what to check (S2 files are private, so a
 * config dir made by another user, e.g. with sudo, is the usual cause).
 */
export function fileSystemError(action: string, target: string, error: unknown): unknown {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  // Anything else (a StateError already, or a bug) goes on as it is.
  if (error instanceof StateError || typeof code !== 'string') return error;
  const hint = Object.hasOwn(FILE_SYSTEM_HINTS, code) ? FILE_SYSTEM_HINTS[code] : undefined;
  return new StateError(`cannot ${action} ${target} (${code})`, 'io', { hint, cause: error });
}

/** Creates the directory (mode 700) if needed and refuses one that others can open (S2). */
export function preparePrivateDir(dir: string, files: FileOps = nodeFileOps): void {
  let stat: Stats;
  try {
    // mkdir applies the mode at creation, so the directory is never open even for an instant.
    files.mkdirSync(dir, { recursive: true, mode: DIR_MODE });
    stat = files.statSync(dir);
  } catch (error) {
    // EEXIST here means a file stands where the directory should be.
    throw fileSystemError('create the config directory', dir, error);
  }
  if (!stat.isDirectory()) throw new StateError(`${dir} is not a directory`, 'io');
  refuseLooseMode(dir, stat, DIR_MODE, 'the config directory', 'read or change the API key');
}

let writes = 0;

/**
 * Atomic and private: readers see the complete old or the complete new file, never a part (R3), and the
 * content is never on disk with a looser mode than 600, not even for an instant.
 */
export function writePrivateFile(target: string, content: string, options: { beforeRename?: () => void; files?: FileOps } = {}): void {
  try {
    writeFileAtomic(target, content, { ...options, mode: FILE_MODE });
  } catch (error) {
    throw fileSystemError('write', target, error);
  }
}

/** Atomic, with the file created in its final mode (before the umask): the sandbox's files use it too. */
export function writeFileAtomic(target: string, content: string, options: { mode: number; beforeRename?: () => void; files?: FileOps }): void {
  const files = options.files ?? nodeFileOps;
  const dir = dirname(target);
  const prefix = `.${basename(target)}.`;
  // Unique per process and write; O_EXCL below refuses a name that exists anyway (no crypto needed on the cron path).
  const temp = join(dir, `${prefix}${process.pid}.${++writes}.${Date.now().toString(36)}.tmp`);
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
  options.beforeRename?.();
  try {
    files.renameSync(temp, target);
  } catch (error) {
    files.rmSync(temp, { force: true });
    throw error;
  }
  syncDir(dir, files);
  removeStaleTemps(dir, prefix, files);
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
