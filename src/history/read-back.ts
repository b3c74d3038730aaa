import fs from 'node:fs';

const NEWLINE = 0x0a;
/** Not a blank line: tested, not trimmed, so that no copy of each line is made. */
const NOT_BLANK = /\S/;

export interface ReadBackOptions {
  /** Read this much at a time. */
  chunkBytes: number;
  /** Stop after this much of the file, counted from its end. */
  maxBytes: number;
  /** A longer line is not kept in memory: it is given as `undefined`, like any line that cannot be read. */
  maxLineBytes: number;
}

/**
 * The lines of a file from its end backwards, newest first, read a chunk at a time: memory stays bounded
 * whatever the file's size, and a reader that wants only the latest lines reads only those. Blank lines are
 * left out; a line cut by `maxBytes` is not given.
 */
export function* linesBackward(fd: number, size: number, options: ReadBackOptions): Generator<string | undefined> {
  const floor = Math.max(0, size - options.maxBytes);
  const buffer = Buffer.allocUnsafe(options.chunkBytes);
  // The end of a line whose start lies in a chunk not read yet, and whether it grew too long to keep.
  let carry: Buffer = Buffer.alloc(0);
  let oversized = false;
  let position = size;
  while (position > floor) {
    const length = Math.min(options.chunkBytes, position - floor);
    position -= length;
    if (readAt(fd, buffer, length, position) < length) return; // the file shrank under us
    const first = buffer.subarray(0, length).indexOf(NEWLINE);
    if (first === -1) {
      [carry, oversized] = grown(buffer.subarray(0, length), carry, oversized, options.maxLineBytes);
      continue;
    }
    // From just after the chunk's first newline to the carried end: whole lines, decoded at once (a
    // newline byte is never part of a longer UTF-8 sequence, so the cut cannot split a character).
    const tail = buffer.subarray(first + 1, length);
    const lines = (oversized ? tail : Buffer.concat([tail, carry])).toString('utf8').split('\n');
    for (let i = lines.length - 1; i >= 0; i -= 1) {
      const text = i === lines.length - 1 && oversized ? undefined : lines[i];
      if (text === undefined || text.length > options.maxLineBytes) yield undefined;
      else if (NOT_BLANK.test(text)) yield text;
    }
    [carry, oversized] = grown(buffer.subarray(0, first), Buffer.alloc(0), false, options.maxLineBytes);
  }
  if (position === 0) {
    const text = oversized ? undefined : carry.toString('utf8');
    if (text === undefined) yield undefined;
    else if (NOT_BLANK.test(text)) yield text;
  }
}

/** The carried line with `head` before it (copied: the buffer is read into again), unless too long. */
function grown(head: Buffer, carry: Buffer, oversized: boolean, max: number): [Buffer, boolean] {
  if (oversized || head.length + carry.length > max) return [Buffer.alloc(0), true];
  return [Buffer.concat([head, carry]), false];
}

function readAt(fd: number, buffer: Buffer, length: number, position: number): number {
  let done = 0;
  while (done < length) {
    const n = fs.readSync(fd, buffer, done, length - done, position + done);
    if (n === 0) break;
    done += n;
  }
  return done;
}
