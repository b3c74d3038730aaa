import { lstatSync, readlinkSync, realpathSync, type Stats, statSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';

/** Who may change what a path leads to: root, this user, and any group that can become root anyway. */
export interface Trusted {
  uid: number;
  /**
   * Groups whose members can already act as root (sudo): a directory writable by one is no weaker than
   * root's. gid 0 (root, wheel) everywhere; on macOS also admin (80), which Homebrew's /usr/local and
   * /opt/homebrew are writable by.
   */
  adminGroups: readonly number[];
}

export const trustedHere = (): Trusted | undefined => {
  const uid = process.getuid?.();
  if (uid === undefined) return undefined; // Windows: no owners and modes to go by
  return { uid, adminGroups: process.platform === 'darwin' ? [0, 80] : [0] };
};

/** Why another user could change what runs at `file`, and the fix; none when no one else can. */
export interface Exposure {
  why: string;
  hint: string;
}

/** The kernel gives up on more links than this (Linux's limit); so does the walk. */
const MAX_LINKS = 40;
const MOVE_IT = 'move the program to a directory only you (or root) can write to';

/**
 * Walks `file` as the kernel does when it runs it, entry by entry, following symbolic links, and gives the
 * first step another user could change. Every directory it looks in must belong to root or this user and
 * be writable by no one else; a sticky one (/tmp) may be, if the entry looked up in it is this user's or
 * root's, since others can add entries there but not rename or remove those. So a link, or a directory on
 * the way, that others can replace counts as much as the program's own file, and so does a name that does
 * not exist yet where others can create it. The program itself must be a regular file: a FIFO runs
 * whatever its writer sends.
 */
export function exposure(file: string, trusted: Trusted, { program = true } = {}): Exposure | undefined {
  const names = resolve(file).split('/').filter(Boolean);
  let dir = '/';
  let dirStat = statSync('/');
  let links = 0;
  const rootExposed = dirExposure('/', dirStat, trusted);
  if (rootExposed) return rootExposed;
  while (names.length > 0) {
    const name = names.shift() as string;
    if (name === '.') continue;
    if (name === '..') {
      dir = resolve(dir, '..');
      dirStat = statSync(dir);
      continue;
    }
    const path = join(dir, name);
    const entry = lstatOrNone(path);
    const open = othersMayWrite(dirStat, trusted);
    if (open && !(entry && (dirStat.mode & 0o1000) !== 0 && owns(entry, trusted))) {
      const where = names.length === 0 ? 'in' : 'under';
      const mode = (dirStat.mode & 0o7777).toString(8);
      return entry
        ? { why: `is ${where} ${dir}, which others can write to (mode ${mode})`, hint: fixDir(dir, dirStat, trusted) }
        : { why: `does not exist yet, in ${dir}, where others can create it`, hint: fixDir(dir, dirStat, trusted) };
    }
    // Not there, or something the program cannot start: no one else can put it there (that was checked).
    if (!entry) return undefined;
    if (entry.isSymbolicLink()) {
      if (++links > MAX_LINKS) return { why: `passes more than ${MAX_LINKS} symbolic links`, hint: MOVE_IT };
      const target = readlinkSync(path);
      if (isAbsolute(target)) {
        dir = '/';
        dirStat = statSync('/');
      }
      names.unshift(...target.split('/').filter(Boolean));
      continue;
    }
    if (names.length === 0) return fileExposure(path, entry, trusted, program);
    if (!entry.isDirectory()) return undefined; // the path leads nowhere: starting it fails
    const exposed = dirExposure(path, entry, trusted);
    if (exposed) return exposed;
    dir = path;
    dirStat = entry;
  }
  return undefined;
}

/** The path the walk ends at, for messages: the program as written may be a link to it. */
export function resolvedOrSelf(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return resolve(file);
  }
}

/**
 * The program's own file: a regular one, this user's or root's, and writable by no one else. A file it is
 * given (a script) the same, except that a directory or a device given as an argument (an output dir,
 * /dev/null) is not run: only its owner counts. A FIFO or socket never passes: its writer decides what is read.
 */
function fileExposure(path: string, stat: Stats, trusted: Trusted, program: boolean): Exposure | undefined {
  const readThrough = stat.isFIFO() || stat.isSocket();
  if (!stat.isFile() && (program || readThrough))
    return { why: `is not a regular file (${kindOf(stat)})`, hint: MOVE_IT };
  if (!stat.isFile()) return owns(stat, trusted) ? undefined : { why: `belongs to user ${stat.uid}`, hint: MOVE_IT };
  if (!owns(stat, trusted)) return { why: `belongs to user ${stat.uid}`, hint: 'use a copy of your own' };
  if (othersMayWrite(stat, trusted))
    return { why: `has mode ${(stat.mode & 0o777).toString(8)}`, hint: `run: chmod go-w '${path}'` };
  return undefined;
}

/** A directory the walk looks in: this user's or root's (its owner could change its mode, and so it). */
function dirExposure(dir: string, stat: Stats, trusted: Trusted): Exposure | undefined {
  if (!owns(stat, trusted)) return { why: `is under ${dir}, which belongs to user ${stat.uid}`, hint: MOVE_IT };
  return undefined;
}

function owns(stat: Stats, { uid }: Trusted): boolean {
  return stat.uid === uid || stat.uid === 0;
}

function othersMayWrite(stat: Stats, { adminGroups }: Trusted): boolean {
  return (stat.mode & 0o002) !== 0 || ((stat.mode & 0o020) !== 0 && !adminGroups.includes(stat.gid));
}

/** A chmod only of a directory of this user's own, and never of a sticky one meant for everyone (/tmp). */
function fixDir(dir: string, stat: Stats, { uid }: Trusted): string {
  if (stat.uid === uid && (stat.mode & 0o1000) === 0) return `run: chmod go-w '${dir}', or ${MOVE_IT}`;
  return MOVE_IT;
}

function lstatOrNone(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw error;
  }
}

function kindOf(stat: Stats): string {
  if (stat.isFIFO()) return 'a FIFO';
  if (stat.isDirectory()) return 'a directory';
  if (stat.isSocket()) return 'a socket';
  if (stat.isCharacterDevice() || stat.isBlockDevice()) return 'a device';
  return 'not a file';
}
