import fs from 'node:fs';
import path from 'node:path';
import { BIN } from './harness.js';

// Some promises are about an ordinary user (a file they do not own, a port they may not take). As root,
// those tests run the command as nobody, which needs node and this clone readable by anyone: a node
// under root's home (npx -p node@24) is not, and the tests are then skipped.

export const NOBODY = 65534;

/** Spawn options that make the command run as an ordinary user: nobody when this is root, else as is. */
export const asUser: { uid?: number; gid?: number } = process.getuid?.() === 0 ? { uid: NOBODY, gid: NOBODY } : {};

/** Whether the command can run as that user: every directory on the way to node and to the bundle is open. */
export function userCanRun(): boolean {
  if (asUser.uid === undefined) return true;
  const open = (file: string, bits: number) => (fs.statSync(file).mode & bits) === bits;
  const reachable = (file: string) => {
    for (let dir = path.dirname(file); dir !== path.dirname(dir); dir = path.dirname(dir))
      if (!open(dir, 0o001)) return false;
    return true;
  };
  const bundle = path.join(path.dirname(BIN), '..', 'dist', 'agent.cjs');
  return (
    reachable(process.execPath) &&
    open(process.execPath, 0o005) &&
    reachable(bundle) &&
    open(bundle, 0o004) &&
    open(BIN, 0o004)
  );
}
