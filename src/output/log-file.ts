import fs from 'node:fs';
import { StateError } from '../errors.js';
import type { WritableLike } from './output.js';

/** Past this, the log is moved to `<log>.1` (replacing the one before) before more is added: the two stay under twice it. */
export const LOG_LIMIT_BYTES = 1024 * 1024;

// Appended to only, created private; never through a symbolic link, and a FIFO nobody reads fails at once
// instead of holding the run.
const { O_WRONLY, O_APPEND, O_CREAT, O_EXCL, O_NOFOLLOW, O_NONBLOCK } = fs.constants;
const APPEND = O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_NONBLOCK;

/**
 * The log a run writes itself (`poll --log`, what the crontab line names): every line starts with the time
 * it was written, the file is created mode 600 (a shell's `>>` makes it 644), only a regular file is
 * written to, and it is moved aside once past `limitBytes`, also in the middle of a long `--watch`. Throws
 * a StateError when it cannot be opened. A write that fails later (a full disk) sends that text, and all
 * that follows, to `fallback` (stderr, which cron mails) after one line that says so.
 */
export function openLog(
  file: string,
  {
    now,
    fallback,
    limitBytes = LOG_LIMIT_BYTES,
    files = fs,
  }: { now: () => number; fallback: WritableLike; limitBytes?: number; files?: RotateOps },
): WritableLike {
  let fd = open(file);
  let lineStart = true;
  let failed = false;
  const stamped = (text: string) => {
    const time = new Date(now()).toISOString();
    let out = '';
    for (const piece of text.split(/(?<=\n)/)) {
      if (piece === '') continue;
      out += lineStart ? `${time} ${piece}` : piece;
      lineStart = piece.endsWith('\n');
    }
    return out;
  };
  return {
    isTTY: false,
    write(chunk: string) {
      if (failed) return fallback.write(chunk);
      try {
        fd = rotated(file, fd, limitBytes, files);
        fs.writeFileSync(fd, stamped(chunk));
      } catch (error) {
        failed = true;
        fallback.write(`agent: cannot write to the log ${file} (${codeOf(error)}); the rest goes here\n${chunk}`);
      }
      return true;
    },
  };
}

function open(file: string): number {
  let fd: number;
  try {
    fd = fs.openSync(file, APPEND, 0o600);
  } catch (error) {
    const code = codeOf(error);
    const why = code === 'ELOOP' ? 'it is a symbolic link' : code === 'ENXIO' ? 'it is a pipe nobody reads' : code;
    throw new StateError(`cannot write the log ${file} (${why})`, 'io');
  }
  if (fs.fstatSync(fd).isFile()) return fd;
  fs.closeSync(fd);
  throw new StateError(`cannot write the log ${file} (it is not a regular file)`, 'io');
}

/** The calls rotation makes by path; passed in so a test can put another run's rotation between them. */
export type RotateOps = Pick<typeof fs, 'statSync' | 'renameSync'>;

/** A rotation takes a few calls; a guard older than this was left by a run that was killed. */
const GUARD_STALE_MS = 10_000;

/**
 * The descriptor to write to: this one, or once the file has passed the limit, a new file after the full
 * one is moved aside. Only under `<log>.rotating`, created exclusively, and only if the file there is
 * still the one this run filled: two runs rotating at once would otherwise both pass the check, and the
 * second would move a nearly empty new file over the full one. A run that finds another rotating, or the
 * file moved already, just opens the file that is there.
 */
function rotated(file: string, fd: number, limitBytes: number, files: RotateOps): number {
  const mine = fs.fstatSync(fd);
  if (mine.size < limitBytes) return fd;
  const guard = `${file}.rotating`;
  if (takeGuard(guard)) {
    try {
      const there = files.statSync(file, { throwIfNoEntry: false });
      if (there?.ino === mine.ino && there.dev === mine.dev) files.renameSync(file, `${file}.1`);
    } finally {
      fs.rmSync(guard, { force: true });
    }
  }
  fs.closeSync(fd);
  return open(file);
}

// The file system's time, as the guard's mtime is: not the run's clock, which tests set.
function takeGuard(guard: string): boolean {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.closeSync(fs.openSync(guard, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o600));
      return true;
    } catch (error) {
      if (codeOf(error) !== 'EEXIST') throw error;
    }
    const since = fs.lstatSync(guard, { throwIfNoEntry: false });
    if (since && Date.now() - since.mtimeMs <= GUARD_STALE_MS) return false;
    fs.rmSync(guard, { force: true });
  }
  return false;
}

function codeOf(error: unknown): string {
  return (error as NodeJS.ErrnoException).code ?? (error as Error).message;
}
