import type { Stats } from 'node:fs';
import { StateError } from '../errors.js';
import { shownPath } from '../output/sanitize.js';
import { configDirShown, isSystemDir } from './dir-fix.js';

/** Who this runs as: injected (main.ts), so that tests can be another user without being one. */
export interface RunningUser {
  uid: number;
  /** The login name of a uid, for messages; undefined when unknown. */
  nameOf(uid: number): string | undefined;
}

/**
 * A config dir belongs to one user. A run as someone else, root above all (sudo), would leave files that
 * user owns with mode 600, and every later run by the owner (cron) would fail on them: refused before
 * anything is written or sent. Root on its own dir is just a user on its own dir.
 */
export function refuseForeignOwner(
  target: string,
  stat: Stats,
  user: RunningUser | undefined,
  kind: string,
  dir: string,
): void {
  if (user === undefined || stat.uid === user.uid) return;
  const owner = who(user, stat.uid);
  const me = who(user, user.uid);
  const why = `files written there now would belong to ${me.name}, and the runs of ${owner.name} (cron) could not use them`;
  const { shown, real } =
    target === dir ? configDirShown(dir) : { shown: shownPath(target), real: configDirShown(dir).real };
  // Never a chown -R of a system directory (a config dir linked to / or /root).
  const hint = isSystemDir(real)
    ? `run agent as ${owner.name}; ${shownPath(real)} is a system directory, not a config dir: use one of your own`
    : `run agent as ${owner.name}, or give the directory to ${me.name}: sudo chown -R ${me.name} '${real}'`;
  throw new StateError(
    `${kind} ${shown} belongs to ${owner.text}, but this runs as ${me.text}: ${why}; nothing was done`,
    'foreign',
    { hint },
  );
}

function who(user: RunningUser, uid: number): { name: string; text: string } {
  const name = user.nameOf(uid);
  return name === undefined ? { name: String(uid), text: `uid ${uid}` } : { name, text: `${name} (uid ${uid})` };
}
