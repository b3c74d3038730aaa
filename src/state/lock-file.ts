import { CREATE_EXCLUSIVE, type FileOps } from './file-ops.js';
import { fileSystemError } from './private-file.js';
import { readRegularFile } from './regular-file.js';

// The lock file's own operations (state/lock.ts says what the lock is for): read it as found, remove it,
// and the guard under which a stale one is taken over.

/** The takeover guard is held for a few file operations; one older than 10 s was left by a killed run. */
export function takeGuard(guard: string, now: number, files: FileOps): boolean {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      files.closeSync(files.openSync(guard, CREATE_EXCLUSIVE, 0o600));
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST')
        throw fileSystemError('create the lock file', guard, error);
    }
    try {
      if (now - files.statSync(guard).mtimeMs <= 10_000) return false;
    } catch {
      continue; // released meanwhile
    }
    removeIfThere(guard, files);
  }
  return false;
}

// unlinkSync, not rmSync: rmSync loads a recursive-delete module on every cron run for one file.
export function removeIfThere(file: string, files: FileOps): void {
  try {
    files.unlinkSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw fileSystemError('remove the lock file', file, error);
  }
}

export function tryToRemove(file: string, files: FileOps): void {
  try {
    files.unlinkSync(file);
  } catch {
    // best effort: the error that matters is the one being reported
  }
}

/**
 * The lock as found, or undefined if it is gone. One we may not read is an error: taken for "gone", it
 * would make every run give up as "busy" (a quiet exit 0 under cron) for as long as it stays.
 */
export function readHolder(
  file: string,
  files: FileOps,
): { raw: string; pid: number | undefined; mtimeMs: number; ino: number } | undefined {
  const found = readRegularFile(file, 'the lock file', files);
  if (!found) return undefined;
  const { text: raw, ...stat } = found;
  let pid: number | undefined;
  try {
    const value = (JSON.parse(raw) as { pid?: unknown }).pid;
    if (typeof value === 'number' && Number.isInteger(value) && value > 0) pid = value;
  } catch {
    // half-written by a holder that is starting up, or garbage
  }
  return { raw, pid, mtimeMs: stat.mtimeMs, ino: stat.ino };
}

export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
