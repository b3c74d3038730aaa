import fs from 'node:fs';

/**
 * The file-system calls behind the state file, the settings file and the lock. Passed in (Node's by
 * default), so that a test can make one fail, or watch them, without patching node:fs for everyone.
 */
export type FileOps = Pick<
  typeof fs,
  | 'closeSync'
  | 'fstatSync'
  | 'fsyncSync'
  | 'ftruncateSync'
  | 'lstatSync'
  | 'mkdirSync'
  | 'openSync'
  | 'readdirSync'
  | 'readFileSync'
  | 'renameSync'
  | 'rmSync'
  | 'statSync'
  | 'unlinkSync'
  | 'utimesSync'
  | 'writeFileSync'
>;

// The module itself, not a copy of it: the build turns this default import into a plain require().
export const nodeFileOps: FileOps = fs;

/** Open for writing, create, and fail if it exists: a file made this way is ours, with the mode we gave. */
export const CREATE_EXCLUSIVE = fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL;

/** Open to read, never through a symbolic link, and without waiting for a FIFO's writer (regular-file.ts). */
export const O_READ_REGULAR = fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK;
