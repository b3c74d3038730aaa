import fs from 'node:fs';
import path from 'node:path';
import { StateError } from '../errors.js';
import { fileSystemError, keepOpenFilePrivate } from '../state/private-file.js';
import { linesBackward } from './read-back.js';
import { type HistoryEntry, parseRecord } from './entry.js';

/** The history: JSON lines in the config dir, mode 600 like everything there. */
export const HISTORY_FILE = 'history.jsonl';
/**
 * Past this, the file becomes history.1.jsonl (replacing the one before) and a new one starts: the two
 * hold at most twice this. A month of cron polls (288 a day) with a hundred posts a day is ~2.5 MB.
 */
export const HISTORY_LIMIT_BYTES = 4 * 1024 * 1024;
/** No file the history wrote comes near this; of a larger one only the newest part is read. */
export const HISTORY_READ_BYTES = 2 * HISTORY_LIMIT_BYTES;
/**
 * Records are appended when each run takes them, so two runs side by side (a predict during a poll) may
 * write a little out of time order: reading back stops only this far before the time asked for.
 */
const OUT_OF_ORDER_MS = 15 * 60_000;
const CHUNK_BYTES = 256 * 1024;
const MAX_LINE_BYTES = 64 * 1024;

// Never through a link, and never waiting on a FIFO nobody writes to (a cron run would hang there).
const SAFE_OPEN = (fs.constants.O_NOFOLLOW ?? 0) | (fs.constants.O_NONBLOCK ?? 0);
const APPEND = fs.constants.O_WRONLY | fs.constants.O_APPEND | fs.constants.O_CREAT | SAFE_OPEN;
/** What open says for a link (O_NOFOLLOW), a directory, and a FIFO no one reads. */
const NOT_REGULAR_CODES = new Set(['ELOOP', 'EISDIR', 'ENXIO']);

function files(dir: string): { current: string; previous: string } {
  return { current: path.join(dir, HISTORY_FILE), previous: path.join(dir, 'history.1.jsonl') };
}

/**
 * Appends the records, one write each, so that a run killed half-way leaves whole lines and runs that
 * append side by side never mix theirs. Only into a regular file: a link to some other file, or a FIFO,
 * gets nothing. A failure (a full disk) is reported through `warn` and never thrown: the posts are in the
 * state file, which is what matters.
 */
export function appendHistory(dir: string, records: readonly HistoryEntry[], warn: (message: string) => void): void {
  if (!records.length) return;
  const { current, previous } = files(dir);
  let fd: number | undefined;
  try {
    fd = openRegular(current, APPEND);
    if (fs.fstatSync(fd).size >= HISTORY_LIMIT_BYTES) {
      fs.closeSync(fd);
      fd = undefined;
      fs.renameSync(current, previous);
      fd = openRegular(current, APPEND);
    }
    for (const record of records) fs.writeSync(fd, `${JSON.stringify(record)}\n`);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    const why = NOT_REGULAR_CODES.has(code) || error instanceof NotRegularError ? 'not a regular file' : code;
    warn(`agent: could not add to the history in ${current} (${why}); what this run did is saved in the state`);
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

export interface HistoryQuery {
  /** Only records from this epoch ms on. */
  since?: number;
  /** At most this many records (of those kept). */
  limit?: number;
  /** Only the records this accepts. */
  keep?: (record: HistoryEntry) => boolean;
}

export interface HistoryRead {
  /** Newest first. */
  records: HistoryEntry[];
  /** Lines that could not be read: skipped, never fatal. */
  unreadable: number;
  /** Files larger than the history ever grows, of which only the newest HISTORY_READ_BYTES were read. */
  tooLarge: Array<{ file: string; bytes: number }>;
}

/**
 * The records asked for, newest first, read from the end of each file backwards in bounded pieces: a
 * history of any size costs only what is asked for. A file that is not a regular one is an error that
 * names it.
 */
export function readHistory(dir: string, query: HistoryQuery = {}): HistoryRead {
  const read: HistoryRead = { records: [], unreadable: 0, tooLarge: [] };
  const { since = Number.NEGATIVE_INFINITY, limit = Number.POSITIVE_INFINITY, keep } = query;
  for (const file of [files(dir).current, files(dir).previous]) {
    const fd = openForReading(file);
    if (fd === undefined) continue;
    try {
      const { size } = fs.fstatSync(fd);
      if (size > HISTORY_READ_BYTES) read.tooLarge.push({ file, bytes: size });
      const lines = linesBackward(fd, size, {
        chunkBytes: CHUNK_BYTES,
        maxBytes: HISTORY_READ_BYTES,
        maxLineBytes: MAX_LINE_BYTES,
      });
      for (const line of lines) {
        const record = line === undefined ? undefined : parse(line);
        if (!record) {
          read.unreadable += 1;
          continue;
        }
        if (since !== Number.NEGATIVE_INFINITY) {
          const at = Date.parse(record.ts);
          if (at < since - OUT_OF_ORDER_MS) return read;
          if (at < since) continue;
        }
        if (keep && !keep(record)) continue;
        read.records.push(record);
        if (read.records.length >= limit) return read;
      }
    } finally {
      fs.closeSync(fd);
    }
  }
  return read;
}

/** What a reader should be told about a read, one line each. */
export function readNotes(read: HistoryRead): string[] {
  const notes = read.tooLarge.map(
    ({ file, bytes }) =>
      `agent: ${file} is ${Math.round(bytes / 1024 / 1024)} MiB, more than the history ever grows to; only its newest ${HISTORY_READ_BYTES / 1024 / 1024} MiB were read`,
  );
  if (read.unreadable)
    notes.push(`agent: ${read.unreadable} line(s) of the history could not be read and were left out`);
  return notes;
}

function parse(line: string): HistoryEntry | undefined {
  try {
    return parseRecord(JSON.parse(line));
  } catch {
    return undefined;
  }
}

class NotRegularError extends Error {}

/** The file opened with `flags`, only if it is a regular file (and not a link to one). */
function openRegular(file: string, flags: number): number {
  const fd = fs.openSync(file, flags, 0o600);
  try {
    if (!fs.fstatSync(fd).isFile()) throw new NotRegularError(file);
    keepOpenFilePrivate(fd, file, 'the history');
  } catch (error) {
    fs.closeSync(fd);
    throw error;
  }
  return fd;
}

function openForReading(file: string): number | undefined {
  try {
    return openRegular(file, fs.constants.O_RDONLY | SAFE_OPEN);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    if (error instanceof NotRegularError || code === 'ELOOP') {
      throw new StateError(`${file} is not a regular file (${whatIs(file)})`, 'io', {
        hint: `move it aside (mv '${file}' '${file}.aside'): the next run starts a new history`,
      });
    }
    throw fileSystemError('read the history', file, error);
  }
}

function whatIs(file: string): string {
  try {
    const stat = fs.lstatSync(file);
    if (stat.isSymbolicLink()) return 'a symbolic link';
    if (stat.isDirectory()) return 'a directory';
    if (stat.isFIFO()) return 'a FIFO';
    if (stat.isSocket()) return 'a socket';
    return 'a device';
  } catch {
    return 'gone now';
  }
}
