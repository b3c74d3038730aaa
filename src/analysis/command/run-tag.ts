import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';

// A process that calls setsid leaves the analyzer's process group, and once its parent exits nothing
// links it to the run any more (its parent becomes init). What it keeps is its environment: every
// process the analyzer starts inherits a variable naming this run, and when the run ends every process
// of ours that still carries it is killed (the way Jenkins ends a build's strays). Linux only (/proc);
// a descendant that clears its environment escapes, and so does one started by another user.

export const RUN_TAG_VARIABLE = 'AGENT_ANALYZER_RUN';
const PROC = '/proc';
/** New strays may be started while the last ones are killed: a few passes, not forever. */
const PASSES = 3;

export function newRunTag(): string {
  return randomBytes(12).toString('hex');
}

/** Whether this system lets us find a run's processes by their environment. */
export function canFindTagged(): boolean {
  try {
    readFileSync(`${PROC}/self/environ`);
    return true;
  } catch {
    return false;
  }
}

/** SIGKILLs every process (other than this one) whose environment carries the tag. */
export function killTagged(tag: string): void {
  const needle = Buffer.from(`${RUN_TAG_VARIABLE}=${tag}\0`);
  for (let pass = 0; pass < PASSES; pass++) {
    let found = 0;
    for (const pid of processIds()) {
      if (pid === process.pid || !carries(pid, needle)) continue;
      found += 1;
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone already, or not ours
      }
    }
    if (found === 0) return;
  }
}

function processIds(): number[] {
  try {
    return readdirSync(PROC)
      .filter((name) => /^\d+$/.test(name))
      .map(Number);
  } catch {
    return [];
  }
}

function carries(pid: number, needle: Buffer): boolean {
  try {
    // Another user's processes are unreadable (EACCES): we could not kill them anyway.
    const environ = readFileSync(`${PROC}/${pid}/environ`);
    // Each entry ends in NUL; the first has no NUL before it, so the tag is matched with its end only
    // and its start checked by hand.
    const at = environ.indexOf(needle);
    return at === 0 || (at > 0 && environ[at - 1] === 0);
  } catch {
    return false;
  }
}
