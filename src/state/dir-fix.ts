import { realpathSync, type Stats } from 'node:fs';
import { shownPath } from '../output/sanitize.js';

/**
 * Trees of the system: a config dir is never one of them, and no fix may chmod or chown them. With the
 * root and every top-level directory (/home, /root, /tmp, /srv, …), which hold others' files too.
 */
const SYSTEM_TREES = [
  '/usr',
  '/etc',
  '/bin',
  '/sbin',
  '/lib',
  '/lib32',
  '/lib64',
  '/boot',
  '/dev',
  '/proc',
  '/sys',
  '/run',
  '/System',
];

export function isSystemDir(dir: string): boolean {
  if (dir.split('/').filter(Boolean).length <= 1) return true;
  return SYSTEM_TREES.some((tree) => dir === tree || dir.startsWith(`${tree}/`));
}

/**
 * A config dir as messages name it, and the directory a fix would act on: the one it resolves to, since a
 * config dir may be a symbolic link (`agents/<name>` linked elsewhere) and chmod follows links.
 */
export function configDirShown(dir: string): { shown: string; real: string } {
  let real = dir;
  try {
    real = realpathSync(dir);
  } catch {
    // Not there: named as given.
  }
  return { shown: real === dir ? shownPath(dir) : `${shownPath(dir)} (a link to ${shownPath(real)})`, real };
}

/**
 * What to do about a config dir that cannot stay as it is, when no chmod or chown of it may be advised:
 * a system directory (pasted as root, `chmod 700 /` would lock every other user out), or one another user
 * owns. Undefined when the directory is this user's own and an ordinary one: the usual fix applies.
 */
export function noChangeOfDir(dir: string, real: string, stat: Stats, uid: number | undefined): string | undefined {
  const elsewhere = `remove ${shownPath(dir)}, or point it at a private directory of your own`;
  if (isSystemDir(real)) return `${shownPath(real)} is a system directory, not a config dir: ${elsewhere}`;
  if (uid !== undefined && stat.uid !== uid) return `${shownPath(real)} belongs to uid ${stat.uid}: ${elsewhere}`;
  return undefined;
}
