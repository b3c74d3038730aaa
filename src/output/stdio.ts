import { fstatSync, writeSync } from 'node:fs';
import type { WritableLike } from './output.js';

export interface FdOps {
  fstatSync: (fd: number) => { isCharacterDevice(): boolean };
  writeSync: (fd: number, bytes: Uint8Array) => number;
}

const realFd: FdOps = { fstatSync, writeSync };

/**
 * Standard output or error as Output needs it. Building `process.stdout` loads Node's stream and net
 * modules, ~3 ms of every run (docs/performance.md): a cron run that prints nothing should not pay it, nor a
 * `--version` into a pipe. So off a terminal the bytes go to the descriptor directly, as Node's own stream
 * does for a file; on a terminal (or another character device) Node's stream is used, since ora needs one.
 */
export function stdio(
  fd: 1 | 2,
  rawStream: () => NodeJS.WriteStream,
  onFail: (error: NodeJS.ErrnoException) => void,
  ops: FdOps = realFd,
): WritableLike {
  // A write that fails (a full disk, /dev/full, a device error) ends the printing, not the program: Node's
  // stream would otherwise throw it as an unhandled 'error' event, stack trace and all.
  let failed = false;
  const fail = (error: NodeJS.ErrnoException) => {
    if (failed) return;
    failed = true;
    onFail(error);
  };
  const stream = () => {
    const node = rawStream();
    if (!node.listeners('error').includes(fail)) node.on('error', fail);
    return node;
  };
  let characterDevice = false;
  try {
    characterDevice = ops.fstatSync(fd).isCharacterDevice();
  } catch {
    // A closed descriptor: Node's stream copes with it as it always has.
    return stream();
  }
  return characterDevice ? stream() : directWriter(fd, stream, ops, fail);
}

function directWriter(
  fd: number,
  stream: () => NodeJS.WriteStream,
  ops: FdOps,
  fail: (error: NodeJS.ErrnoException) => void,
): WritableLike {
  // Once Node's stream has bytes queued, everything after them must queue behind them too.
  let queued: NodeJS.WriteStream | undefined;
  let readerGone = false;
  return {
    isTTY: false,
    write(chunk: string) {
      if (queued) return queued.write(chunk);
      let rest: Uint8Array = Buffer.from(chunk, 'utf8');
      while (rest.length > 0 && !readerGone) {
        try {
          rest = rest.subarray(ops.writeSync(fd, rest));
        } catch (error) {
          const code = (error as NodeJS.ErrnoException).code;
          // A non-blocking pipe that is full: Node's stream waits for it to drain, and the process for the stream.
          if (code === 'EAGAIN') {
            queued = stream();
            return queued.write(rest);
          }
          // Whoever read this (`| head`) has gone: there is nobody left to print to.
          readerGone = true;
          if (code !== 'EPIPE') fail(error as NodeJS.ErrnoException);
        }
      }
      return true;
    },
  };
}
