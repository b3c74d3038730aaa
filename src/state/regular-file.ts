import { StateError } from '../errors.js';
import { shownPath } from '../output/sanitize.js';
import { nodeFileOps, type FileOps, O_READ_REGULAR } from './file-ops.js';
import { fileSystemError } from './private-file.js';

/**
 * A small file of the config dir (the run lock, the watch marker) read as found, with its modification
 * time and inode, or undefined when there is none. Only a regular file is read: opened without following
 * a symbolic link and without waiting for a writer (a FIFO would hold every run forever), and anything
 * else there is an error that names it and the fix, instead of a hang, "a bug", or a quiet "busy".
 */
export function readRegularFile(
  file: string,
  kind: string,
  files: FileOps = nodeFileOps,
): { text: string; mtimeMs: number; ino: number } | undefined {
  let fd: number;
  try {
    fd = files.openSync(file, O_READ_REGULAR);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    // O_NOFOLLOW refuses a symbolic link with ELOOP (some systems say EMLINK).
    if (code === 'ELOOP' || code === 'EMLINK') throw notRegular(file, kind, 'a symbolic link');
    throw fileSystemError(`read ${kind}`, file, error);
  }
  try {
    const stat = files.fstatSync(fd);
    if (!stat.isFile()) throw notRegular(file, kind, stat.isDirectory() ? 'a directory' : 'a FIFO or device');
    return { text: files.readFileSync(fd, 'utf8'), mtimeMs: stat.mtimeMs, ino: stat.ino };
  } catch (error) {
    throw fileSystemError(`read ${kind}`, file, error);
  } finally {
    files.closeSync(fd);
  }
}

/** Something other than a regular file stands where `kind` belongs: what it is, and the fix. */
export function notRegular(file: string, kind: string, what: string): StateError {
  return new StateError(`${kind} ${shownPath(file)} is not a regular file (${what})`, 'io', {
    hint: `nothing but agent's own file belongs there: remove it (rm -r '${file}')`,
  });
}
