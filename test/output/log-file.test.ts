import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { StateError } from '../../src/errors.js';
import { openLog, type RotateOps } from '../../src/output/log-file.js';
import { Output } from '../../src/output/output.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-log-'));
  dirs.push(dir);
  return dir;
}

/** A clock that says what it is told, and a stderr that keeps what it is given. */
function world() {
  let now = Date.parse('2026-01-02T03:04:05.678Z');
  const fallback: string[] = [];
  return {
    now: () => now,
    advance: (ms: number) => (now += ms),
    fallback: { write: (chunk: string) => fallback.push(chunk) },
    fellBack: () => fallback.join(''),
  };
}

describe('the log a run writes itself', () => {
  it('starts every line with the time it was written, whatever the chunks, and is created mode 600', () => {
    const file = path.join(tempDir(), 'poll.log');
    const w = world();
    const log = openLog(file, w);
    log.write('agent: one\nagent: two\n');
    w.advance(1500);
    log.write('half a line');
    log.write(', the rest\n');
    expect(fs.readFileSync(file, 'utf8')).toBe(
      '2026-01-02T03:04:05.678Z agent: one\n2026-01-02T03:04:05.678Z agent: two\n' +
        '2026-01-02T03:04:07.178Z half a line, the rest\n',
    );
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  });

  it("appends to what is there, and leaves an existing file's mode alone", () => {
    const file = path.join(tempDir(), 'poll.log');
    fs.writeFileSync(file, 'before\n', { mode: 0o640 });
    openLog(file, world()).write('after\n');
    expect(fs.readFileSync(file, 'utf8')).toBe('before\n2026-01-02T03:04:05.678Z after\n');
    expect(fs.statSync(file).mode & 0o777).toBe(0o640);
  });

  it('refuses a symbolic link (the file it names stays as it was), a directory and a device', () => {
    const dir = tempDir();
    const victim = path.join(dir, 'victim');
    fs.writeFileSync(victim, 'keep\n');
    fs.symlinkSync(victim, path.join(dir, 'link.log'));
    fs.mkdirSync(path.join(dir, 'dir.log'));
    const refused: Array<[file: string, why: string]> = [
      [path.join(dir, 'link.log'), 'it is a symbolic link'],
      [path.join(dir, 'dir.log'), 'EISDIR'],
      ['/dev/null', 'it is not a regular file'],
    ];
    for (const [file, why] of refused) {
      expect(() => openLog(file, world())).toThrow(StateError);
      expect(() => openLog(file, world())).toThrow(`cannot write the log ${file} (${why})`);
    }
    expect(fs.readFileSync(victim, 'utf8')).toBe('keep\n');
  });

  it('moves a full log to <log>.1 before adding to it, also in the middle of a long run', () => {
    const file = path.join(tempDir(), 'poll.log');
    fs.writeFileSync(file, 'x'.repeat(100));
    const log = openLog(file, { ...world(), limitBytes: 100 });
    // Full when opened: left as it is until there is something to add.
    expect(fs.existsSync(`${file}.1`)).toBe(false);
    log.write(`${'y'.repeat(80)}\n`);
    expect(fs.readFileSync(`${file}.1`, 'utf8')).toBe('x'.repeat(100));
    log.write('z\n');
    expect(fs.readFileSync(`${file}.1`, 'utf8')).toMatch(/ y{80}\n$/);
    expect(fs.readFileSync(file, 'utf8')).toMatch(/^\S+ z\n$/);
  });

  it('a log another run has moved aside already is not moved again: the full one is kept', () => {
    const file = path.join(tempDir(), 'poll.log');
    fs.writeFileSync(file, 'x'.repeat(100));
    const log = openLog(file, { ...world(), limitBytes: 100 });
    fs.renameSync(file, `${file}.1`);
    fs.writeFileSync(file, 'the other run\n');
    log.write('mine\n');
    expect(fs.readFileSync(`${file}.1`, 'utf8')).toBe('x'.repeat(100));
    expect(fs.readFileSync(file, 'utf8')).toMatch(/^the other run\n\S+ mine\n$/);
  });

  it('two runs rotating at once: the second, whose check passed before the first moved the file, keeps the full one', () => {
    const file = path.join(tempDir(), 'poll.log');
    fs.writeFileSync(file, 'x'.repeat(100));
    const first = openLog(file, { ...world(), limitBytes: 100 });
    let between: () => void = () => undefined;
    // The second run's look at the file, and then, before it can act on it, the first run's whole rotation.
    const files: RotateOps = {
      ...fs,
      statSync: ((...args: Parameters<typeof fs.statSync>) => {
        const seen = fs.statSync(...args);
        const run = between;
        between = () => undefined;
        run();
        return seen;
      }) as typeof fs.statSync,
      renameSync: fs.renameSync,
    };
    const second = openLog(file, { ...world(), limitBytes: 100, files });
    between = () => first.write('first\n');
    second.write('second\n');
    const moved = fs.readFileSync(`${file}.1`, 'utf8');
    const current = fs.readFileSync(file, 'utf8');
    // The full log survives, and every line is in one of the two files.
    expect(`${moved}${current}`).toContain('x'.repeat(100));
    expect(`${moved}\n${current}`).toMatch(/ first\n/);
    expect(`${moved}\n${current}`).toMatch(/ second\n/);
  });

  it('a rotation guard left by a killed run (older than 10 s) does not stop rotation for good', () => {
    const file = path.join(tempDir(), 'poll.log');
    fs.writeFileSync(file, 'x'.repeat(100));
    fs.writeFileSync(`${file}.rotating`, '');
    const old = (Date.now() - 60_000) / 1000;
    fs.utimesSync(`${file}.rotating`, old, old);
    openLog(file, { ...world(), limitBytes: 100 }).write('after\n');
    expect(fs.readFileSync(`${file}.1`, 'utf8')).toBe('x'.repeat(100));
    expect(fs.existsSync(`${file}.rotating`)).toBe(false);
  });

  it('once a write fails, that text and all that follows go to stderr, after one line that says so', () => {
    const dir = tempDir();
    const file = path.join(dir, 'poll.log');
    fs.writeFileSync(file, 'x'.repeat(100));
    // The full log cannot be moved aside: a directory with something in it holds its place.
    fs.mkdirSync(`${file}.1`);
    fs.writeFileSync(path.join(`${file}.1`, 'in the way'), '');
    const w = world();
    const log = openLog(file, { ...w, limitBytes: 100 });
    log.write('agent: first\n');
    log.write('agent: second\n');
    expect(w.fellBack()).toMatch(
      new RegExp(
        `^agent: cannot write to the log ${file} \\(\\w+\\); the rest goes here\\nagent: first\\nagent: second\\n$`,
      ),
    );
  });
});

describe('Output sent to a log', () => {
  it('results, warnings and errors alike, as off a terminal: no progress, no colour', () => {
    const file = path.join(tempDir(), 'poll.log');
    const terminal = { write: () => true, isTTY: true };
    const output = new Output({ stdout: terminal, stderr: terminal, json: false, quiet: false, verbose: false });
    expect(output.interactive).toBe(true);
    output.sendTo((stderr) => openLog(file, { ...world(), fallback: stderr }));
    output.result('posted a', {});
    output.progress('working…');
    output.warn('agent: a warning');
    output.error('agent: an error');
    expect([output.interactive, output.colour, output.stdoutIsTTY]).toEqual([false, false, false]);
    expect(fs.readFileSync(file, 'utf8')).toBe(
      '2026-01-02T03:04:05.678Z posted a\n2026-01-02T03:04:05.678Z agent: a warning\n2026-01-02T03:04:05.678Z agent: an error\n',
    );
  });
});
