import { describe, expect, it } from 'vitest';
import { stdio, type FdOps } from '../../src/output/stdio.js';

function errno(code: string): NodeJS.ErrnoException {
  return Object.assign(new Error(code), { code });
}

/** A descriptor that takes at most `perCall` bytes a write and fails as `script` says, call by call. */
function fakeFd(options: { characterDevice?: boolean; perCall?: number; script?: Array<string | undefined> } = {}) {
  const written: Buffer[] = [];
  let calls = 0;
  const ops: FdOps = {
    fstatSync: () => ({ isCharacterDevice: () => options.characterDevice ?? false }),
    writeSync: (_fd, bytes) => {
      const failure = options.script?.[calls++];
      if (failure) throw errno(failure);
      const n = Math.min(bytes.length, options.perCall ?? bytes.length);
      written.push(Buffer.from(bytes.subarray(0, n)));
      return n;
    },
  };
  return { ops, text: () => Buffer.concat(written).toString('utf8'), calls: () => calls };
}

const noFailure = (error: NodeJS.ErrnoException) => {
  throw new Error(`unexpected output failure: ${error.code}`);
};

function fakeStream(isTTY = false) {
  const chunks: string[] = [];
  const listeners: Array<(error: Error) => void> = [];
  const stream = {
    isTTY,
    on: (event: string, listener: (error: Error) => void) => void (event === 'error' && listeners.push(listener)),
    listeners: () => listeners,
    emitError: (error: Error) => {
      for (const listener of listeners) listener(error);
    },
    write: (chunk: string | Uint8Array) => {
      chunks.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
      return true;
    },
  } as unknown as NodeJS.WriteStream;
  let built = 0;
  const get = () => {
    built += 1;
    return stream;
  };
  return { get, stream, chunks, built: () => built };
}

describe('stdio', () => {
  it('writes to a pipe or a file directly, without building Node’s stream', () => {
    const fd = fakeFd();
    const node = fakeStream();
    const out = stdio(1, node.get, noFailure, fd.ops);
    expect(out.isTTY).toBe(false);
    out.write('0.1.0\n');
    out.write('Bullish on c/bitcoin — “ETF inflows” ✓\n');
    expect(fd.text()).toBe('0.1.0\nBullish on c/bitcoin — “ETF inflows” ✓\n');
    expect(node.built()).toBe(0);
  });

  it('uses Node’s stream on a terminal (ora needs one)', () => {
    const node = fakeStream(true);
    expect(stdio(2, node.get, noFailure, fakeFd({ characterDevice: true }).ops)).toBe(node.stream);
  });

  it('uses Node’s stream when the descriptor cannot even be examined', () => {
    const node = fakeStream();
    const ops: FdOps = {
      ...fakeFd().ops,
      fstatSync: () => {
        throw errno('EBADF');
      },
    };
    expect(stdio(1, node.get, noFailure, ops)).toBe(node.stream);
  });

  it('finishes a write the descriptor took only in part', () => {
    const fd = fakeFd({ perCall: 3 });
    const out = stdio(1, fakeStream().get, noFailure, fd.ops);
    out.write('éàü and more\n');
    expect(fd.text()).toBe('éàü and more\n');
  });

  it('hands the rest to Node’s stream when a non-blocking pipe is full, and queues everything after behind it', () => {
    const fd = fakeFd({ perCall: 4, script: [undefined, 'EAGAIN'] });
    const node = fakeStream();
    const out = stdio(1, node.get, noFailure, fd.ops);
    out.write('12345678');
    out.write('9\n');
    expect(fd.text()).toBe('1234');
    expect(node.chunks.join('')).toBe('56789\n');
    expect(fd.calls()).toBe(2);
  });

  it('drops output quietly once the reader has gone (EPIPE), as `| head` expects', () => {
    const fd = fakeFd({ script: ['EPIPE'] });
    const node = fakeStream();
    const out = stdio(1, node.get, noFailure, fd.ops);
    expect(() => out.write('a line\n')).not.toThrow();
    out.write('another\n');
    expect(fd.calls()).toBe(1);
    expect(node.built()).toBe(0);
  });

  it('reports any other write error once, and writes nothing more', () => {
    const failures: string[] = [];
    const fd = fakeFd({ script: ['ENOSPC'] });
    const out = stdio(2, fakeStream().get, (error) => failures.push(error.code!), fd.ops);
    expect(() => out.write('x\n')).not.toThrow();
    out.write('y\n');
    expect(failures).toEqual(['ENOSPC']);
    expect(fd.calls()).toBe(1);
  });

  it("reports an error Node's stream emits later (a terminal-like device such as /dev/full)", () => {
    const failures: string[] = [];
    const node = fakeStream(true);
    stdio(1, node.get, (error) => failures.push(error.code!), fakeFd({ characterDevice: true }).ops);
    (node.stream as unknown as { emitError(e: Error): void }).emitError(errno('ENOSPC'));
    expect(failures).toEqual(['ENOSPC']);
  });
});
