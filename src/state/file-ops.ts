import {
  closeSync,
  constants,
  fsyncSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  unlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs';

/**
 * The file-system calls behind the state file, the settings file and the lock. Passed in (Node's by
 * default), so that a test can make one fail, or watch them, without patching node:fs for everyone.
 */
export interface FileOps {
  closeSync: typeof closeSync;
  fsyncSync: typeof fsyncSync;
  lstatSync: typeof lstatSync;
  mkdirSync: typeof mkdirSync;
  openSync: typeof openSync;
  readdirSync: typeof readdirSync;
  readFileSync: typeof readFileSync;
  renameSync: typeof renameSync;
  rmSync: typeof rmSync;
  statSync: typeof statSync;
  unlinkSync: typeof unlinkSync;
  writeFileSync: typeof writeFileSync;
  writeSync: typeof writeSync;
}

export const nodeFileOps: FileOps = {
  closeSync,
  fsyncSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  unlinkSync,
  writeFileSync,
  writeSync,
};

/** Open for writing, create, and fail if it exists: a file made this way is ours, with the mode we gave. */
export const CREATE_EXCLUSIVE = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL;
