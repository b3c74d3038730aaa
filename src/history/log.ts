import fs from 'node:fs';
import path from 'node:path';
import { type HistoryRecord, parseRecord } from './record.js';

/** The history: JSON lines in the config dir, mode 600 like everything there. */
export const HISTORY_FILE = 'history.jsonl';
/**
 * Past this, the file becomes history.1.jsonl (replacing the one before) and a new one starts: the two
 * hold at most twice this. A month of cron polls (288 a day) with a hundred posts a day is ~2.5 MB.
 */
export const HISTORY_LIMIT_BYTES = 4 * 1024 * 1024;

function files(dir: string): { current: string; previous: string } {
  return { current: path.join(dir, HISTORY_FILE), previous: path.join(dir, 'history.1.jsonl') };
}

/**
 * Appends the records, one write each, so that a run killed half-way leaves whole lines and runs that
 * append side by side never mix theirs. `mask` is applied to each line as written. A failure (a full
 * disk) is reported through `warn` and never thrown: the posts are in the state file, which is what matters.
 */
export function appendHistory(
  dir: string,
  records: readonly HistoryRecord[],
  warn: (message: string) => void,
  { mask = (line: string) => line }: { mask?: (line: string) => string } = {},
): void {
  if (!records.length) return;
  const { current, previous } = files(dir);
  let fd: number | undefined;
  try {
    fd = fs.openSync(current, fs.constants.O_WRONLY | fs.constants.O_APPEND | fs.constants.O_CREAT, 0o600);
    if (fs.fstatSync(fd).size >= HISTORY_LIMIT_BYTES) {
      fs.closeSync(fd);
      fd = undefined;
      fs.renameSync(current, previous);
      fd = fs.openSync(current, fs.constants.O_WRONLY | fs.constants.O_APPEND | fs.constants.O_CREAT, 0o600);
    }
    for (const record of records) fs.writeSync(fd, `${mask(JSON.stringify(record))}\n`);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    warn(`agent: could not add to the history in ${current} (${code}); what this run did is saved in the state`);
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/** Every record, oldest first, and how many lines could not be read (skipped, never fatal). */
export function readHistory(dir: string): { records: HistoryRecord[]; unreadable: number } {
  const records: HistoryRecord[] = [];
  let unreadable = 0;
  for (const file of [files(dir).previous, files(dir).current]) {
    let text: string;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw error;
    }
    for (const line of text.split('\n')) {
      if (line === '') continue;
      try {
        const record = parseRecord(JSON.parse(line));
        if (record) records.push(record);
        else unreadable += 1;
      } catch {
        unreadable += 1;
      }
    }
  }
  return { records, unreadable };
}
