import fs from 'node:fs';
import path from 'node:path';

// The record's files (prices, thread texts, outcomes) are JSON lines in the config dir, private like
// everything there: created 600 from the first byte, appended to (O_APPEND, one write a batch, so a killed
// run leaves whole lines and runs side by side never mix theirs), never followed through a symlink, never
// anything but a regular file, and rotated like the history: past the limit the file becomes `<name>.1`,
// replacing the one before, so the two hold at most twice the limit.

export interface LineFile {
  current: string;
  previous: string;
  limitBytes: number;
}

export function lineFile(dir: string, name: string, limitBytes: number): LineFile {
  return { current: path.join(dir, `${name}.jsonl`), previous: path.join(dir, `${name}.1.jsonl`), limitBytes };
}

// Absent on platforms without it (Windows), where 0 asks for nothing.
const NO_FOLLOW = fs.constants.O_NOFOLLOW ?? 0;
const APPEND = fs.constants.O_WRONLY | fs.constants.O_APPEND | fs.constants.O_CREAT | NO_FOLLOW;
const READ = fs.constants.O_RDONLY | NO_FOLLOW;

/** Why a file of the record was not used: a symlink, a directory, a mode others may read. */
export class RecordFileError extends Error {}

/** Appends `text` (whole lines, each ending in \n) in one write; throws what went wrong, for the caller to say. */
export function appendLines(file: LineFile, text: string): void {
  if (text === '') return;
  let fd = openChecked(file.current, APPEND);
  try {
    if (fs.fstatSync(fd).size >= file.limitBytes) {
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

/** The whole text of both files, older first; a file not there yet is empty. */
export function readAllLines(file: LineFile): string[] {
  const lines: string[] = [];
  for (const name of [file.previous, file.current]) {
    const text = readText(name);
    if (text) for (const line of text.split('\n')) if (line !== '') lines.push(line);
  }
  return lines;
}

/**
 * Lines newest first, from the end of the current file back into the previous one, until `more` says
 * enough (it sees each line in turn): a run that needs the last hours never reads the weeks before.
 */
export function readLinesBackward(file: LineFile, more: (line: string) => boolean, chunkBytes = 64 * 1024): void {
  for (const name of [file.current, file.previous]) {
    let fd: number;
    try {
      fd = openChecked(name, READ);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw error;
    }
    try {
      let end = fs.fstatSync(fd).size;
      let rest = '';
      while (end > 0) {
        const start = Math.max(0, end - chunkBytes);
        const buffer = Buffer.alloc(end - start);
        fs.readSync(fd, buffer, 0, buffer.length, start);
        end = start;
        // A chunk may begin inside a line (or inside a character): its first piece waits for the chunk before.
        const text = buffer.toString('latin1') + rest;
        const lines = text.split('\n');
        rest = end > 0 ? (lines.shift() ?? '') : '';
        for (let i = lines.length - 1; i >= 0; i--) {
          const line = lines[i] ?? '';
          if (line !== '' && !more(Buffer.from(line, 'latin1').toString('utf8'))) return;
        }
      }
    } finally {
      fs.closeSync(fd);
    }
  }
}

function readText(name: string): string {
  let fd: number;
  try {
    fd = openChecked(name, READ);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return '';
    throw error;
  }
  try {
    return fs.readFileSync(fd, 'utf8');
  } finally {
    fs.closeSync(fd);
  }
}

/** Opens with the mode 600 it is created with; refuses what is not a regular file, or is open to others. */
function openChecked(name: string, flags: number): number {
  let fd: number;
  try {
    fd = fs.openSync(name, flags, 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOOP')
      throw new RecordFileError(`${name} is a symbolic link: not followed`);
    throw error;
  }
  const stat = fs.fstatSync(fd);
  const problem = !stat.isFile()
    ? 'is not a regular file'
    : (stat.mode & 0o077) !== 0
      ? `has mode ${(stat.mode & 0o777).toString(8)}: other users could read it (chmod 600 '${name}')`
      : undefined;
  if (problem) {
    fs.closeSync(fd);
    throw new RecordFileError(`${name} ${problem}`);
  }
  return fd;
}
