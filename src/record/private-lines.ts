import fs from 'node:fs';
import path from 'node:path';
import { StateError } from '../errors.js';
import { keepOpenFilePrivate } from '../state/private-file.js';

// The record's files (prices, thread texts, outcomes) are JSON lines in the config dir, private like
// everything there: created 600 from the first byte, appended to (O_APPEND, one write a batch, so a killed
// run leaves whole lines and runs side by side never mix theirs), never followed through a symlink, never
// anything but a regular file, and rotated like the history: past the limit the file becomes `<name>.1`,
// replacing the one before, so the two hold at most twice the limit. A file whose older lines are still
// wanted (outcomes, by stats' week) may put off the move while `<name>.1` holds such lines, up to its most.

export interface LineFile {
  current: string;
  previous: string;
  /** Past this the current file is moved aside, unless the previous one holds lines still kept. */
  limitBytes: number;
  /** Past this it is moved aside whatever the previous one holds; readers read this much of each file. */
  maxBytes: number;
}

export function lineFile(dir: string, name: string, limitBytes: number, maxBytes = 2 * limitBytes): LineFile {
  return {
    current: path.join(dir, `${name}.jsonl`),
    previous: path.join(dir, `${name}.1.jsonl`),
    limitBytes,
    maxBytes,
  };
}

// Absent on platforms without them (Windows), where 0 asks for nothing. Non-blocking so that a FIFO put in
// a file's place is refused (it is not a regular file) instead of holding the run until someone writes.
const NO_FOLLOW = fs.constants.O_NOFOLLOW ?? 0;
const NO_WAIT = fs.constants.O_NONBLOCK ?? 0;
const APPEND = fs.constants.O_WRONLY | fs.constants.O_APPEND | fs.constants.O_CREAT | NO_FOLLOW | NO_WAIT;
const READ = fs.constants.O_RDONLY | NO_FOLLOW | NO_WAIT;

/**
 * A file of the record that is not a regular file (a symlink, a FIFO, a directory): never used, and said
 * with the fix, like any state-file problem. A run only warns of it; a command that reads the record stops.
 */
export class RecordFileError extends StateError {
  constructor(file: string, what: string) {
    super(`${file} is ${what}, not a regular file: not used`, 'io', {
      hint: `move it aside (mv '${file}' '${file}.aside'): the next poll starts a new one`,
    });
  }
}

/**
 * Appends `text` (whole lines, each ending in \n) in one write; throws what went wrong, for the caller to
 * say. Past the limit the file is moved aside, replacing the previous one, unless `keeps` says the
 * previous one's newest line must still be kept and the text fits within the file's most.
 */
export function appendLines(file: LineFile, text: string, keeps?: (newestPrevious: string) => boolean): void {
  if (text === '') return;
  let fd = openChecked(file.current, APPEND);
  try {
    const size = fs.fstatSync(fd).size;
    const fits = size + Buffer.byteLength(text) <= file.maxBytes;
    if (size >= file.limitBytes && !(keeps && fits && previousKeeps(file, keeps))) {
      fs.closeSync(fd);
      fd = -1;
      fs.renameSync(file.current, file.previous);
      fd = openChecked(file.current, APPEND);
    }
    fs.writeSync(fd, text);
  } finally {
    if (fd !== -1) fs.closeSync(fd);
  }
}

function previousKeeps(file: LineFile, keeps: (newest: string) => boolean): boolean {
  let newest: string | undefined;
  readFileBackward(file.previous, file.maxBytes, (line) => {
    newest = line;
    return false;
  });
  return newest !== undefined && keeps(newest);
}

/** Both files' lines, older first (each file's last `maxBytes`: see readLinesBackward). */
export function readAllLines(file: LineFile): string[] {
  const lines: string[] = [];
  readLinesBackward(file, (line) => {
    lines.push(line);
    return true;
  });
  return lines.reverse();
}

/** A line longer than this is not one of ours: it is dropped, never held whole in memory. */
const MAX_LINE_BYTES = 1024 * 1024;

/**
 * Lines newest first, from the end of the current file back into the previous one, until `more` says
 * enough (it sees each line in turn): a run that needs the last hours never reads the weeks before. Of each
 * file only the last `maxBytes` are read (it is moved aside by then), so a huge file put in its place
 * costs no more than a full one; a line cut there, or longer than 1 MiB, is dropped.
 */
export function readLinesBackward(file: LineFile, more: (line: string) => boolean, chunkBytes = 64 * 1024): void {
  for (const name of [file.current, file.previous])
    if (!readFileBackward(name, file.maxBytes, more, chunkBytes)) return;
}

/** One file's lines newest first, of its last `floorBytes`; false once `more` said enough. */
function readFileBackward(
  name: string,
  floorBytes: number,
  more: (line: string) => boolean,
  chunkBytes = 64 * 1024,
): boolean {
  let fd: number;
  try {
    fd = openChecked(name, READ);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return true;
    throw error;
  }
  try {
    let end = fs.fstatSync(fd).size;
    const floor = Math.max(0, end - floorBytes);
    let rest = '';
    while (end > floor) {
      const start = Math.max(floor, end - chunkBytes);
      const buffer = Buffer.alloc(end - start);
      fs.readSync(fd, buffer, 0, buffer.length, start);
      end = start;
      // A chunk may begin inside a line (or inside a character): its first piece waits for the chunk before.
      const lines = (buffer.toString('latin1') + rest).split('\n');
      rest = end > 0 ? (lines.shift() ?? '') : '';
      if (rest.length > MAX_LINE_BYTES) rest = '';
      for (let i = lines.length - 1; i >= 0; i--) {
        const line = lines[i] ?? '';
        if (line !== '' && line.length <= MAX_LINE_BYTES && !more(Buffer.from(line, 'latin1').toString('utf8')))
          return false;
      }
    }
    return true;
  } finally {
    fs.closeSync(fd);
  }
}

/** Opens with the mode 600 it is created with; refuses what is not a regular file; makes private one open to others. */
function openChecked(name: string, flags: number): number {
  let fd: number;
  try {
    fd = fs.openSync(name, flags, 0o600);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // A link not followed; a FIFO nobody reads, opened to write without waiting; a directory.
    if (code === 'ELOOP' || code === 'ENXIO' || code === 'EISDIR') throw new RecordFileError(name, whatIs(name));
    throw error;
  }
  try {
    if (!fs.fstatSync(fd).isFile()) throw new RecordFileError(name, whatIs(name));
    // The same rule as the history's: a file open to others is made private again, or refused.
    keepOpenFilePrivate(fd, name, 'the record file');
  } catch (error) {
    fs.closeSync(fd);
    throw error;
  }
  return fd;
}

function whatIs(name: string): string {
  try {
    const stat = fs.lstatSync(name);
    if (stat.isSymbolicLink()) return 'a symbolic link';
    if (stat.isDirectory()) return 'a directory';
    if (stat.isFIFO()) return 'a FIFO';
    if (stat.isSocket()) return 'a socket';
    return 'a device';
  } catch {
    return 'gone now';
  }
}
