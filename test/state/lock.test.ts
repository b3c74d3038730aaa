import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BusyError, EXIT, LockLostError, NotRegisteredError, StateError } from '../../src/errors.js';
import { nodeFileOps, type FileOps } from '../../src/state/file-ops.js';
import { acquireLock } from '../../src/state/lock.js';
import { failing, systemError } from '../support/file-ops.js';
import { thrown } from '../support/failure.js';

// One state-changing run at a time (one-writer). Liveness is injected: no process is started or killed.

const T0 = Date.parse('2025-06-01T12:00:00.000Z');
const MINUTE = 60_000;
const alive = () => true;
const dead = () => false;

let dir: string;
let file: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-lock-'));
  file = path.join(dir, 'lock');
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A lock file left by someone else, last touched at `at`. */
function leave(content: string, at = T0): void {
  fs.writeFileSync(file, content, { mode: 0o600 });
  fs.utimesSync(file, at / 1000, at / 1000);
}

describe('acquire and release', () => {
  it('creates a private lock file naming the holder, and release removes it', () => {
    const lock = acquireLock({ dir, pid: 101, now: T0, isAlive: alive, token: 'k1' });
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual({
      pid: 101,
      startedAt: '2025-06-01T12:00:00.000Z',
      token: 'k1',
    });
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    lock.release();
    expect(fs.existsSync(file)).toBe(false);
    acquireLock({ dir, pid: 102, now: T0, isAlive: alive }).release();
  });

  it('is exclusive: a second run is turned away with BusyError and the lock stays', () => {
    const first = acquireLock({ dir, pid: 101, now: Date.now(), isAlive: alive });
    const error = thrown(() => acquireLock({ dir, pid: 202, now: Date.now(), isAlive: alive }));
    expect(error).toBeInstanceOf(BusyError);
    expect((error as BusyError).exitCode).toBe(EXIT.temporary);
    expect(error.message).toContain('pid 101');
    expect(error.message).toContain(file);
    expect(JSON.parse(fs.readFileSync(file, 'utf8')).pid).toBe(101);
    first.release();
  });

  it('release twice, or after the file vanished, is harmless', () => {
    const lock = acquireLock({ dir, pid: 101, now: T0, isAlive: alive });
    lock.release();
    expect(() => lock.release()).not.toThrow();
  });

  it('release removes only our own lock, not one that replaced it', () => {
    const lock = acquireLock({ dir, pid: 101, now: T0, isAlive: alive });
    const theirs = JSON.stringify({ pid: 303, startedAt: new Date(T0 + 20 * MINUTE).toISOString() });
    fs.writeFileSync(file, theirs);
    lock.release();
    expect(fs.readFileSync(file, 'utf8')).toBe(theirs);
  });

  it('a config dir that does not exist means nobody registered here (exit 3)', () => {
    const error = thrown(() => acquireLock({ dir: path.join(dir, 'missing'), pid: 101, now: T0, isAlive: alive }));
    expect(error).toBeInstanceOf(NotRegisteredError);
    expect((error as NotRegisteredError).exitCode).toBe(EXIT.notRegistered);
    expect((error as NotRegisteredError).hint).toContain('agent register');
  });
});

describe('a stale lock is taken over', () => {
  const cases: Array<[what: string, content: string, age: number, isAlive: (pid: number) => boolean, taken: boolean]> =
    [
      ['a live holder, 1 min old', JSON.stringify({ pid: 4242 }), 1 * MINUTE, alive, false],
      ['a live holder, 14 min old', JSON.stringify({ pid: 4242 }), 14 * MINUTE, alive, false],
      ['a live holder, 16 min old (a reused pid)', JSON.stringify({ pid: 4242 }), 16 * MINUTE, alive, true],
      ['a dead holder, just now', JSON.stringify({ pid: 4242 }), 0, dead, true],
      ['garbage, 5 s old (a holder still writing)', 'garb', 5_000, alive, false],
      ['garbage, 11 s old', 'garb', 11_000, alive, true],
      ['an empty file, 11 s old', '', 11_000, alive, true],
      ['a pid that is not a number, 11 s old', JSON.stringify({ pid: 'me' }), 11_000, alive, true],
    ];

  it.each(cases)('%s → taken over: %s', (_what, content, age, isAlive, taken) => {
    leave(content, T0);
    const now = T0 + age;
    if (taken) {
      const lock = acquireLock({ dir, pid: 555, now, isAlive });
      expect(JSON.parse(fs.readFileSync(file, 'utf8')).pid).toBe(555);
      expect(fs.readdirSync(dir)).toEqual(['lock']);
      lock.release();
      expect(fs.readdirSync(dir)).toEqual([]);
    } else {
      expect(thrown(() => acquireLock({ dir, pid: 555, now, isAlive }))).toBeInstanceOf(BusyError);
      expect(fs.readFileSync(file, 'utf8')).toBe(content);
    }
  });

  it('asks about the pid in the lock', () => {
    leave(JSON.stringify({ pid: 4242 }));
    const asked: number[] = [];
    acquireLock({
      dir,
      pid: 555,
      now: T0,
      isAlive: (pid) => {
        asked.push(pid);
        return false;
      },
    }).release();
    expect(asked).toEqual([4242]);
  });

  it('by default, a live pid (ours) holds the lock', () => {
    leave(JSON.stringify({ pid: process.pid }), Date.now());
    expect(thrown(() => acquireLock({ dir, pid: 555, now: Date.now() }))).toBeInstanceOf(BusyError);
  });

  it('by default, a pid above the kernel limit is dead', () => {
    leave(JSON.stringify({ pid: 2 ** 22 + 1 }), Date.now());
    acquireLock({ dir, pid: 555, now: Date.now() }).release();
  });

  it('does not take over a fresh lock that replaced the stale one after it was read', () => {
    leave(JSON.stringify({ pid: 4242 }));
    const fresh = JSON.stringify({ pid: 777, startedAt: new Date(T0).toISOString() });
    // Another run recovers first: between our read of the stale lock and our takeover, the lock is new.
    const files: FileOps = {
      ...nodeFileOps,
      openSync: ((target: fs.PathLike, ...rest: [number, number]) => {
        if (String(target).endsWith('.takeover')) {
          fs.rmSync(file);
          fs.writeFileSync(file, fresh, { mode: 0o600 });
        }
        return nodeFileOps.openSync(target, ...rest);
      }) as FileOps['openSync'],
    };
    const error = thrown(() => acquireLock({ dir, pid: 555, now: T0, isAlive: (pid) => pid !== 4242, files }));
    expect(error).toBeInstanceOf(BusyError);
    expect(fs.readFileSync(file, 'utf8')).toBe(fresh);
    expect(fs.readdirSync(dir)).toEqual(['lock']);
  });

  it('does not take over a live holder that renewed its lock after it was judged stale', () => {
    const held = JSON.stringify({ pid: 4242, token: 'theirs' });
    leave(held, T0 - 16 * MINUTE);
    // The holder wakes and renews (confirm's utimes) between our stale judgement and our takeover.
    const files: FileOps = {
      ...nodeFileOps,
      openSync: ((target: fs.PathLike, ...rest: [number, number]) => {
        if (String(target).endsWith('.takeover')) fs.utimesSync(file, T0 / 1000, T0 / 1000);
        return nodeFileOps.openSync(target, ...rest);
      }) as FileOps['openSync'],
    };
    const error = thrown(() => acquireLock({ dir, pid: 555, now: T0, isAlive: alive, files }));
    expect(error).toBeInstanceOf(BusyError);
    expect(fs.readFileSync(file, 'utf8')).toBe(held);
    expect(fs.readdirSync(dir)).toEqual(['lock']);
  });

  it('waits for a run that is taking over (a fresh guard): busy, nothing removed', () => {
    leave(JSON.stringify({ pid: 4242 }));
    fs.writeFileSync(`${file}.takeover`, '', { mode: 0o600 });
    const now = fs.statSync(`${file}.takeover`).mtimeMs;
    const error = thrown(() => acquireLock({ dir, pid: 555, now, isAlive: (pid) => pid !== 4242 }));
    expect(error).toBeInstanceOf(BusyError);
    expect(JSON.parse(fs.readFileSync(file, 'utf8')).pid).toBe(4242);
  });

  it('a guard left by a killed run (older than 10 s) is cleared, and the stale lock taken over', () => {
    leave(JSON.stringify({ pid: 4242 }));
    fs.writeFileSync(`${file}.takeover`, '', { mode: 0o600 });
    const now = fs.statSync(`${file}.takeover`).mtimeMs + 11_000;
    const lock = acquireLock({ dir, pid: 555, now, isAlive: (pid) => pid !== 4242 });
    expect(JSON.parse(fs.readFileSync(file, 'utf8')).pid).toBe(555);
    expect(fs.readdirSync(dir)).toEqual(['lock']);
    lock.release();
  });
});

describe('a holder that lost its lock writes nothing more: confirm (one-writer)', () => {
  it("passes while the lock is this holding's, and renews it: a live holder that confirms is not taken over", () => {
    let clock = T0;
    const lock = acquireLock({ dir, pid: 101, now: T0, isAlive: alive, clock: () => clock });
    clock = T0 + 16 * MINUTE;
    lock.confirm();
    expect(fs.statSync(file).mtimeMs).toBe(T0 + 16 * MINUTE);
    expect(thrown(() => acquireLock({ dir, pid: 202, now: T0 + 17 * MINUTE, isAlive: alive }))).toBeInstanceOf(
      BusyError,
    );
    lock.release();
  });

  it.each([
    ['taken over once 16 minutes old, by a run of the same pid (a reused pid)', 101],
    ['taken over by another run', 202],
  ])("%s: LockLostError (exit 5), and the new holder's lock stays", (_what, pid) => {
    const stale = acquireLock({ dir, pid: 101, now: T0, isAlive: alive });
    fs.utimesSync(file, (T0 - 16 * MINUTE) / 1000, (T0 - 16 * MINUTE) / 1000);
    const taker = acquireLock({ dir, pid, now: T0, isAlive: alive });
    const theirs = fs.readFileSync(file, 'utf8');
    const error = thrown(() => stale.confirm());
    expect(error).toBeInstanceOf(LockLostError);
    expect((error as LockLostError).exitCode).toBe(EXIT.temporary);
    expect(error.message).toContain('taken over');
    stale.release();
    expect(fs.readFileSync(file, 'utf8')).toBe(theirs);
    taker.confirm();
    taker.release();
  });

  it('a lock that is gone (removed by hand, or by a run that took it over and ended) is lost too', () => {
    const lock = acquireLock({ dir, pid: 101, now: T0, isAlive: alive });
    fs.rmSync(file);
    expect(thrown(() => lock.confirm())).toBeInstanceOf(LockLostError);
    expect(fs.existsSync(file)).toBe(false);
  });
});

describe('a config dir that belongs to another user', () => {
  it('is refused before the lock is written, naming the owner', () => {
    const error = (() => {
      try {
        acquireLock({ dir, pid: process.pid, now: Date.now(), user: { uid: 4242, nameOf: () => undefined } });
      } catch (caught) {
        return caught as StateError;
      }
      throw new Error('expected an error');
    })();
    expect(error).toBeInstanceOf(StateError);
    expect(error.reason).toBe('foreign');
    expect(error.message).toContain(`belongs to uid ${process.getuid!()}, but this runs as uid 4242`);
    expect(fs.existsSync(file)).toBe(false);
  });

  it('its owner takes the lock as before', () => {
    acquireLock({
      dir,
      pid: process.pid,
      now: Date.now(),
      user: { uid: process.getuid!(), nameOf: () => undefined },
    }).release();
  });
});

describe('a config dir this user may not write (running as root, so the failures are injected)', () => {
  it('a lock that cannot be created: says which file and what to check, not "a bug"', () => {
    const error = thrown(() =>
      acquireLock({ dir, pid: 101, now: T0, isAlive: alive, files: failing('openSync', systemError('EACCES')) }),
    );
    expect(error).toBeInstanceOf(StateError);
    expect((error as StateError).reason).toBe('io');
    expect(error.message).toBe(`cannot create the lock file ${file} (EACCES)`);
    expect((error as StateError).hint).toContain('belong to the user this runs as');
  });

  it('a lock that cannot be written is not left behind to turn other runs away', () => {
    const error = thrown(() =>
      acquireLock({ dir, pid: 101, now: T0, isAlive: alive, files: failing('writeFileSync', systemError('ENOSPC')) }),
    );
    expect(error).toBeInstanceOf(StateError);
    expect(error.message).toBe(`cannot write the lock file ${file} (ENOSPC)`);
    expect((error as StateError).hint).toBe('the disk is full');
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('a lock this user may not read is an error, not "busy" (which would be a quiet exit 0 on every cron run)', () => {
    leave(JSON.stringify({ pid: 4242 }));
    const error = thrown(() =>
      acquireLock({ dir, pid: 555, now: T0, isAlive: alive, files: failing('readFileSync', systemError('EACCES')) }),
    );
    expect(error).toBeInstanceOf(StateError);
    expect(error.message).toBe(`cannot read the lock file ${file} (EACCES)`);
  });

  it("a failure that is not the file system's (a bug) is not dressed up as one", () => {
    const bug = new TypeError('not a function');
    expect(
      thrown(() => acquireLock({ dir, pid: 101, now: T0, isAlive: alive, files: failing('writeFileSync', bug) })),
    ).toBe(bug);
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('a release that cannot remove the lock does not turn a finished run into a failure; the next run takes it over', () => {
    const lock = acquireLock({
      dir,
      pid: 101,
      now: T0,
      isAlive: alive,
      files: failing('unlinkSync', systemError('EACCES')),
    });
    expect(() => lock.release()).not.toThrow();
    expect(JSON.parse(fs.readFileSync(file, 'utf8')).pid).toBe(101);
    acquireLock({ dir, pid: 202, now: T0, isAlive: (pid) => pid !== 101 }).release();
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('a stale lock that cannot be removed: the takeover says so (not that its own guard could not be removed)', () => {
    leave(JSON.stringify({ pid: 4242 }));
    const files = failing('unlinkSync', systemError('EACCES'), Number.POSITIVE_INFINITY);
    const error = thrown(() => acquireLock({ dir, pid: 555, now: T0, isAlive: dead, files }));
    expect(error).toBeInstanceOf(StateError);
    expect(error.message).toBe(`cannot remove the lock file ${file} (EACCES)`);
  });
});
