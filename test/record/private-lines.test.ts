// The record's files: private from creation, whole lines, rotated, never through a symlink, read backwards.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  appendLines,
  lineFile,
  readAllLines,
  readLinesBackward,
  RecordFileError,
} from '../../src/record/private-lines.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});
function tmp(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'record-lines-'));
  dirs.push(dir);
  return dir;
}
const mode = (file: string) => fs.statSync(file).mode & 0o777;

function backward(file: ReturnType<typeof lineFile>, chunkBytes?: number): string[] {
  const lines: string[] = [];
  readLinesBackward(
    file,
    (line) => {
      lines.push(line);
      return true;
    },
    chunkBytes,
  );
  return lines;
}

describe('appendLines', () => {
  it('creates the file 600 whatever the umask, and appends whole lines', () => {
    const dir = tmp();
    const file = lineFile(dir, 'prices', 1024);
    const umask = process.umask(0);
    try {
      appendLines(file, 'a\nb\n');
      appendLines(file, 'c\n');
    } finally {
      process.umask(umask);
    }
    expect(mode(file.current)).toBe(0o600);
    expect(fs.readFileSync(file.current, 'utf8')).toBe('a\nb\nc\n');
  });

  it('puts off the move while the previous file holds a line still kept, up to the most', () => {
    const dir = tmp();
    const file = lineFile(dir, 'outcomes', 10, 40);
    const keepsKept = (newest: string) => newest.startsWith('keep');
    appendLines(file, 'keep-12345\n', keepsKept);
    appendLines(file, 'next-12345\n', keepsKept);
    expect(fs.readFileSync(file.previous, 'utf8')).toBe('keep-12345\n');
    // Past the limit, but the previous file's newest line is kept: the current file grows instead.
    appendLines(file, 'more-12345\n', keepsKept);
    appendLines(file, 'last-12345\n', keepsKept);
    expect(fs.readFileSync(file.previous, 'utf8')).toBe('keep-12345\n');
    expect(fs.readFileSync(file.current, 'utf8')).toBe('next-12345\nmore-12345\nlast-12345\n');
    // Not past the most (40 bytes): the next line would be, so the file is moved aside after all.
    appendLines(file, 'over-12345\n', keepsKept);
    expect(fs.readFileSync(file.previous, 'utf8')).toBe('next-12345\nmore-12345\nlast-12345\n');
    expect(fs.readFileSync(file.current, 'utf8')).toBe('over-12345\n');
    expect(backward(file)).toEqual(['over-12345', 'last-12345', 'more-12345', 'next-12345']);
  });

  it('rotates past the limit: the file becomes <name>.1 (replacing the one before), both 600', () => {
    const dir = tmp();
    const file = lineFile(dir, 'prices', 10);
    appendLines(file, 'first-12345\n');
    appendLines(file, 'second-1234\n');
    appendLines(file, 'third-12345\n');
    expect(fs.readFileSync(file.previous, 'utf8')).toBe('second-1234\n');
    expect(fs.readFileSync(file.current, 'utf8')).toBe('third-12345\n');
    expect(mode(file.previous)).toBe(0o600);
    expect(readAllLines(file)).toEqual(['second-1234', 'third-12345']);
  });

  it('never writes through a symlink, and leaves its target alone', () => {
    const dir = tmp();
    const target = path.join(dir, 'elsewhere.txt');
    fs.writeFileSync(target, 'untouched\n');
    const file = lineFile(dir, 'prices', 1024);
    fs.symlinkSync(target, file.current);
    expect(() => appendLines(file, 'x\n')).toThrow(RecordFileError);
    expect(() => appendLines(file, 'x\n')).toThrow(/symbolic link/);
    expect(() => readAllLines(file)).toThrow(/symbolic link/);
    expect(fs.readFileSync(target, 'utf8')).toBe('untouched\n');
  });

  it('refuses anything but a regular file, and makes a file others may read private again', () => {
    const dir = tmp();
    const file = lineFile(dir, 'prices', 1024);
    fs.mkdirSync(file.current);
    expect(() => readAllLines(file)).toThrow(/not a regular file/);
    fs.rmdirSync(file.current);
    fs.writeFileSync(file.current, 'a\n', { mode: 0o644 });
    fs.chmodSync(file.current, 0o644);
    appendLines(file, 'b\n');
    expect(mode(file.current)).toBe(0o600);
    expect(fs.readFileSync(file.current, 'utf8')).toBe('a\nb\n');
  });
});

describe('readLinesBackward', () => {
  it('gives the lines newest first, through both files, whatever the chunk size', () => {
    const dir = tmp();
    const file = lineFile(dir, 'prices', 40);
    const lines = Array.from({ length: 30 }, (_, i) => `{"n":${i},"text":"caf\u00e9 \u2713 ${'x'.repeat(i % 7)}"}`);
    for (const line of lines) appendLines(file, `${line}\n`);
    const kept = readAllLines(file);
    expect(kept.length).toBeLessThan(lines.length); // older ones were rotated away
    for (const chunk of [1, 3, 7, 64, 65536])
      expect(backward(file, chunk), `chunk ${chunk}`).toEqual([...kept].reverse());
  });

  it('reads only the last twice-the-limit bytes of a file: a huge one in its place costs no more', () => {
    const dir = tmp();
    const file = lineFile(dir, 'prices', 1024);
    // 50 MB on disk without a newline (sparse), then two lines: the cut one is dropped, never held whole.
    const fd = fs.openSync(file.current, 'w', 0o600);
    fs.ftruncateSync(fd, 50 * 1024 * 1024);
    fs.writeSync(fd, '\nnewer\nnewest\n', 50 * 1024 * 1024);
    fs.closeSync(fd);
    expect(readAllLines(file)).toEqual(['newer', 'newest']);
  });

  it('stops where it is told, without reading further', () => {
    const dir = tmp();
    const file = lineFile(dir, 'prices', 1 << 20);
    appendLines(file, 'a\nb\nc\nd\n');
    const seen: string[] = [];
    readLinesBackward(file, (line) => {
      seen.push(line);
      return line !== 'c';
    });
    expect(seen).toEqual(['d', 'c']);
  });

  it('reads nothing, and fails on nothing, when there are no files yet', () => {
    expect(backward(lineFile(tmp(), 'prices', 10))).toEqual([]);
    expect(readAllLines(lineFile(tmp(), 'prices', 10))).toEqual([]);
  });
});
