import fs from 'node:fs';
import path from 'node:path';

/**
 * What tells a process apart from a later one with the same pid (after a kill -9 or a reboot, pids are
 * handed out again): its start, in clock ticks after boot (field 22 of /proc/<pid>/stat), and its command
 * line. Linux only; `procRoot` is passed in so that tests can lay out a /proc of their own.
 */
export interface ProcessIdentity {
  start: string;
  argv: string[];
}

export const PROC = '/proc';

/** Whether this platform has a /proc to tell processes apart by (Linux). */
export function hasProc(procRoot = PROC): boolean {
  return identify('self', procRoot) !== undefined;
}

/** The process as /proc shows it, or undefined when it is gone (or /proc is not there). */
export function identify(pid: number | 'self', procRoot = PROC): ProcessIdentity | undefined {
  try {
    const dir = path.join(procRoot, String(pid));
    const stat = fs.readFileSync(path.join(dir, 'stat'), 'utf8');
    // The command name in parentheses may hold spaces and parentheses itself: the fields follow the last ")".
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const start = fields[22 - 3];
    if (!start || !/^\d+$/.test(start)) return undefined;
    const argv = fs.readFileSync(path.join(dir, 'cmdline'), 'utf8').split('\0').filter(Boolean);
    return { start, argv };
  } catch {
    return undefined;
  }
}

/** A command line of `agent poll --watch` (the node binary, the script, then the arguments). */
export function isWatchCommand(argv: string[]): boolean {
  return argv.includes('poll') && argv.includes('--watch');
}
