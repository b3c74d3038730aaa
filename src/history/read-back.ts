import fs from 'node:fs';

const NEWLINE = 0x0a;

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
  // The end of the line being read, whose start lies in an earlier chunk: later bytes last.
  let carry: Buffer[] = [];
  let carryBytes = 0;
  let oversized = false;
  // null: a blank line, which is no line at all.
  const line = (head: Buffer): string | undefined | null => {
    const tooLong = oversized || head.length + carryBytes > options.maxLineBytes;
    // Most lines lie within one chunk: decoded where they are, without a copy.
    const text = tooLong ? undefined : (carry.length ? Buffer.concat([head, ...carry]) : head).toString('utf8');
    carry = [];
    carryBytes = 0;
    oversized = false;
    return text?.trim() === '' ? null : text;
  };
  let position = size;
  while (position > floor) {
    const length = Math.min(options.chunkBytes, position - floor);
    position -= length;
    const read = readAt(fd, buffer, length, position);
    if (read < length) return; // the file shrank under us: what is left is not worth guessing at
    let end = length;
    while (end > 0) {
      const at = buffer.lastIndexOf(NEWLINE, end - 1);
      if (at === -1) break;
      const text = line(buffer.subarray(at + 1, end));
      if (text !== null) yield text;
      end = at;
    }
    if (end > 0) {
      if (carryBytes + end > options.maxLineBytes) {
        oversized = true;
        carry = [];
        carryBytes = 0;
      } else if (!oversized) {
        // A copy: the buffer is read into again.
        carry.unshift(Buffer.from(buffer.subarray(0, end)));
        carryBytes += end;
      }
    }
  }
  if (position === 0) {
    const text = line(Buffer.alloc(0));
    if (text !== null) yield text;
  }
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
