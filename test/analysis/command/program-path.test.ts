import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkAsCronRunsIt, refuseWritableFiles, refuseWritableProgram } from '../../../src/analysis/command/check.js';
import { StateError } from '../../../src/errors.js';

// A program every cron run executes (analyzer.command, alert.command) must be one no other user can swap:
// a regular file, and every directory the kernel walks to reach it (through any symbolic link) owned by root
// or this user and writable by no one else. Real files, FIFOs, links and modes in a private temp dir.

const uid = process.getuid?.() ?? 0;
const NOBODY = 65534;
let root: string;
beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'agent-program-')));
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

function script(file: string, mode = 0o755): string {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, '#!/bin/sh\necho {}\n', { mode });
  fs.chmodSync(file, mode);
  return file;
}

function dir(name: string, mode: number): string {
  const made = path.join(root, name);
  fs.mkdirSync(made, { recursive: true });
  fs.chmodSync(made, mode);
  return made;
}

function refusal(file: string): string | undefined {
  try {
    refuseWritableProgram(file);
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(StateError);
    return (error as StateError).message;
  }
}

describe('a program others could swap is refused', () => {
  it('a regular file of this user, in directories only it can write: accepted', () => {
    expect(refusal(script(path.join(dir('own', 0o755), 'mine.sh')))).toBeUndefined();
    expect(refusal(process.execPath)).toBeUndefined();
  });

  it('a FIFO in place of the script (whoever writes to it decides what runs): refused as not a regular file', () => {
    const fifo = path.join(dir('own', 0o755), 'mine.sh');
    execFileSync('mkfifo', ['-m', '755', fifo]);
    expect(refusal(fifo)).toContain(`${fifo} is not a regular file (a FIFO)`);
    expect(refusal(dir('own', 0o755))).toContain('is not a regular file (a directory)');
  });

  it('a symbolic link to a script in a directory everyone can write: refused, naming the resolved directory', () => {
    const open = dir('open', 0o777);
    const target = script(path.join(open, 'mine.sh'));
    const link = path.join(dir('own', 0o755), 'mine.sh');
    fs.symlinkSync(target, link);
    expect(refusal(link)).toContain(`is in ${open}, which others can write to`);
    expect(refusal(link)).toContain(link);
  });

  it('a link to a directory others can write, on the way to the script: refused', () => {
    const open = dir('open', 0o777);
    script(path.join(open, 'bin', 'mine.sh'));
    fs.chmodSync(path.join(open, 'bin'), 0o755);
    fs.symlinkSync(path.join(open, 'bin'), path.join(dir('own', 0o755), 'bin'));
    // The script's own dir is fine; the one holding it (open) lets anyone rename bin away and put another.
    expect(refusal(path.join(root, 'own', 'bin', 'mine.sh'))).toContain(`is under ${open}, which others can write to`);
  });

  it('a link that others can replace (it sits in a directory they can write) to a good script: refused', () => {
    const target = script(path.join(dir('own', 0o755), 'mine.sh'));
    const open = dir('open', 0o777);
    fs.symlinkSync(target, path.join(open, 'mine.sh'));
    expect(refusal(path.join(open, 'mine.sh'))).toContain(`which others can write to`);
  });

  it('a group-writable directory (a team dir) is refused like a world-writable one', () => {
    const team = dir('team', 0o775);
    fs.chownSync(team, uid, NOBODY);
    expect(refusal(script(path.join(team, 'mine.sh')))).toContain(`is in ${team}, which others can write to`);
    // The file itself, group-writable by another group, the same.
    const file = script(path.join(dir('own', 0o755), 'group.sh'), 0o775);
    fs.chownSync(file, uid, NOBODY);
    expect(refusal(file)).toContain('has mode 775');
  });

  it.skipIf(uid !== 0)('a script, or a directory above it, owned by another user: refused', () => {
    const file = script(path.join(dir('own', 0o755), 'theirs.sh'));
    fs.chownSync(file, NOBODY, NOBODY);
    expect(refusal(file)).toContain(`belongs to user ${NOBODY}`);
    const theirs = dir('theirs', 0o755);
    fs.chownSync(theirs, NOBODY, NOBODY);
    expect(refusal(script(path.join(theirs, 'mine.sh')))).toContain(
      `is under ${theirs}, which belongs to user ${NOBODY}`,
    );
  });

  it('in a sticky directory everyone can write (/tmp): a script this user owns is accepted, another user’s not', () => {
    const sticky = dir('sticky', 0o1777);
    expect(refusal(script(path.join(sticky, 'mine.sh')))).toBeUndefined();
    if (uid !== 0) return;
    const theirs = script(path.join(sticky, 'theirs.sh'));
    fs.chownSync(theirs, NOBODY, NOBODY);
    expect(refusal(theirs)).toContain(`is in ${sticky}, which others can write to`);
    const link = path.join(sticky, 'link.sh');
    fs.symlinkSync(path.join(sticky, 'mine.sh'), link);
    fs.lchownSync(link, NOBODY, NOBODY);
    expect(refusal(link)).toContain(`is in ${sticky}, which others can write to`);
  });

  it('a script that does not exist yet: refused in a directory others can write (sticky or not), not in a private one', () => {
    expect(refusal(path.join(dir('open', 0o777), 'later.sh'))).toContain('does not exist yet');
    expect(refusal(path.join(dir('sticky', 0o1777), 'later.sh'))).toContain('does not exist yet');
    expect(refusal(path.join(dir('own', 0o755), 'later.sh'))).toBeUndefined();
  });
});

describe('the files a program is given', () => {
  it('a directory or a device as an argument (an output dir, /dev/null) passes; a FIFO does not', () => {
    const out = dir('out', 0o700);
    expect(() => refuseWritableFiles([process.execPath, '/dev/null', out])).not.toThrow();
    const fifo = path.join(out, 'script.mjs');
    execFileSync('mkfifo', ['-m', '600', fifo]);
    expect(() => refuseWritableFiles([process.execPath, fifo])).toThrow(
      `the file ${fifo} is not a regular file (a FIFO)`,
    );
    // The program itself must be a regular file.
    expect(() => refuseWritableFiles([out])).toThrow('is not a regular file (a directory)');
  });
});

describe('doctor, as cron runs the command', () => {
  it('fails on a FIFO in place of the script, which the interpreter would read', () => {
    const fifo = path.join(dir('own', 0o755), 'alert.mjs');
    execFileSync('mkfifo', ['-m', '644', fifo]);
    expect(() => checkAsCronRunsIt(`${process.execPath} ${fifo}`, root, 'alert.command')).toThrow(
      /is not a regular file \(a FIFO\)/,
    );
  });

  it('fails on an executable FIFO given as the program itself', () => {
    const fifo = path.join(dir('own', 0o755), 'analyzer');
    execFileSync('mkfifo', ['-m', '755', fifo]);
    expect(() => checkAsCronRunsIt(fifo, root)).toThrow(/is not a regular file \(a FIFO\)/);
  });
});
