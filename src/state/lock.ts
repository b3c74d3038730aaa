import fs from 'node:fs';
import path from 'node:path';
import { BusyError, NotRegisteredError } from '../errors.js';

/** A run never lasts this long (its budget is far shorter), so an older lock is stale even if its pid was reused. */
const STALE_AFTER_MS = 15 * 60_000;

export interface LockOptions {
  dir: string;
  pid: number;
  now: number;
  /** Whether a process with this pid exists; injected so tests can say "dead" without killing anything. */
  isAlive?: (pid: number) => boolean;
}

export interface Lock {
  release(): void;
}

/**
 * One state-changing run at a time per config dir (R6). The lock file is created with O_EXCL; a lock
 * whose holder is dead (or that is older than any run can be) is taken over. Takeover renames the stale
 * file to a name of our own first, so two runs recovering at once cannot both delete it: only one rename
 * succeeds, and that run checks that what it moved really was the stale lock it saw.
 */
export function acquireLock({ dir, pid, now, isAlive = processAlive }: LockOptions): Lock {
  const file = path.join(dir, 'lock');
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = fs.openSync(file, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL, 0o600);
      const mine = JSON.stringify({ pid, startedAt: new Date(now).toISOString() });
      fs.writeSync(fd, mine);
      fs.closeSync(fd);
      return {
        release() {
          // Only our own lock is removed: a takeover may have replaced it with another run's.
          if (readHolder(file)?.raw === mine) removeIfThere(file);
        },
      };
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // No config dir means nobody registered here: say so (exit 3), not "unexpected error: ENOENT".
      if (code === 'ENOENT') throw new NotRegisteredError(`no agent is registered in ${dir}`, { hint: 'run "agent register" first' });
      if (code !== 'EEXIST') throw error;
    }
    const holder = readHolder(file);
    if (!holder) continue; // released between our open and read: try again
    const age = now - holder.mtimeMs;
    const stale = holder.pid === undefined ? age > 10_000 : !isAlive(holder.pid) || age > STALE_AFTER_MS;
    if (!stale) {
      throw new BusyError(`another agent run (pid ${holder.pid ?? 'unknown'}, a poll from cron?) holds ${file}; this run did nothing`, {
        hint: 'try again in a moment',
      });
    }
    const moved = `${file}.${pid}.stale`;
    try {
      fs.renameSync(file, moved);
    } catch {
      continue; // another run took it over first
    }
    const took = readHolder(moved);
    if (took && took.raw !== holder.raw) {
      // We moved a fresh lock that replaced the stale one after we read it: put it back if nobody else has.
      try {
        fs.linkSync(moved, file);
      } catch {
        // someone holds the lock anyway
      }
      removeIfThere(moved);
      throw new BusyError(`another agent run holds ${file}; this run did nothing`, { hint: 'try again in a moment' });
    }
    removeIfThere(moved);
  }
  throw new BusyError(`could not take the lock ${file}; another run keeps taking it`, { hint: 'try again in a moment' });
}

// unlinkSync, not rmSync: rmSync loads a recursive-delete module on every cron run for one file.
function removeIfThere(file: string): void {
  try {
    fs.unlinkSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

function readHolder(file: string): { raw: string; pid: number | undefined; mtimeMs: number } | undefined {
  try {
    const raw = fs.readFileSync(file, 'utf8');
    const mtimeMs = fs.statSync(file).mtimeMs;
    let pid: number | undefined;
    try {
      const value = (JSON.parse(raw) as { pid?: unknown }).pid;
      if (typeof value === 'number' && Number.isInteger(value) && value > 0) pid = value;
    } catch {
      // half-written by a holder that is starting up, or garbage
    }
    return { raw, pid, mtimeMs };
  } catch {
    return undefined;
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
