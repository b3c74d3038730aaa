import fs from 'node:fs';
import path from 'node:path';
import type { RunProgram } from '../../context.js';

/** The names the cron daemon runs under: Debian's cron, cronie's and busybox's crond, fcron. */
const DAEMONS = new Set(['cron', 'crond', 'fcron']);

/**
 * Whether a cron daemon runs here: a process of that name in the process table (`proc`, Linux's /proc),
 * or else systemd's word for its cron unit. 'unknown' where neither can tell (no /proc, or one that
 * hides other users' processes, and no systemd).
 */
export async function cronDaemon(proc: string, run: RunProgram): Promise<'running' | 'stopped' | 'unknown'> {
  const seen = processNames(proc);
  if (seen && [...seen].some((name) => DAEMONS.has(name))) return 'running';
  const asked = await run('systemctl', ['is-active', 'cron', 'crond']);
  if (asked.stdout.split('\n').some((line) => line.trim() === 'active')) return 'running';
  return seen ? 'stopped' : 'unknown';
}

/**
 * The names of the processes this user can see, or undefined when that is not all of them: no process
 * table, or one mounted with hidepid (where pid 1, init, is not visible), in which a daemon run as root
 * would be missed.
 */
function processNames(proc: string): Set<string> | undefined {
  let pids: string[];
  try {
    pids = fs.readdirSync(proc).filter((name) => /^\d+$/.test(name));
  } catch {
    return undefined;
  }
  if (!pids.includes('1')) return undefined;
  const names = new Set<string>();
  for (const pid of pids) {
    try {
      names.add(fs.readFileSync(path.join(proc, pid, 'comm'), 'utf8').trim());
    } catch {
      // gone since the listing
    }
  }
  return names;
}
