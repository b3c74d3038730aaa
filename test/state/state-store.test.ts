import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EXIT, LockLostError, StateError } from '../../src/errors.js';
import type { State } from '../../src/state/schema.js';
import { createStateStore, parseState } from '../../src/state/state-store.js';
import type { FileOps } from '../../src/state/file-ops.js';
import { failing, systemError, watched } from '../support/file-ops.js';

// The private store on a real file system, in a temp dir per test. Tests run as root, so permission
// denied cannot be provoked with chmod; loose modes can, and I/O failures are injected as file operations.

let root: string;
let dir: string;
beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-store-'));
  dir = path.join(root, 'config');
});
afterEach(() => {
  fs.rmSync(root, { recursive: true, force: true });
});

const STATE: State = {
  apiKey: 'hive_0123456789abcdefSECRETKEY',
  agentName: 'bot',
  cursor: { timestamp: '2025-06-01T12:00:00.000Z', id: 't-1' },
  baseUrl: 'https://svc.example.test',
};

const mode = (target: string) => fs.statSync(target).mode & 0o777;

function seed(content: string, fileMode = 0o600, dirMode = 0o700): string {
  fs.mkdirSync(dir, { mode: dirMode });
  fs.chmodSync(dir, dirMode);
  const file = path.join(dir, 'state.json');
  fs.writeFileSync(file, content, { mode: fileMode });
  fs.chmodSync(file, fileMode);
  return file;
}

function thrown(run: () => unknown): StateError {
  try {
    run();
  } catch (error) {
    return error as StateError;
  }
  throw new Error('expected an error');
}

describe('read', () => {
  it('is undefined when the config dir does not exist', () => {
    expect(createStateStore(dir).read()).toBeUndefined();
  });

  it('is undefined when the dir exists without a state file', () => {
    fs.mkdirSync(dir, { mode: 0o700 });
    expect(createStateStore(dir).read()).toBeUndefined();
  });

  it('reads back what was written, extra keys included', () => {
    const store = createStateStore(dir);
    const state = {
      ...STATE,
      futureKey: { nested: [1, 2] },
      journal: new Map([['t-2', { ts: '2025-06-01T12:05:00Z', status: 'posted' as const, extra: 'kept' }]]),
    };
    store.write(state);
    expect(store.read()).toEqual({ ...state, version: 1 });
  });

  it('keeps a thread id such as __proto__ as a journal entry, on disk and when read back', () => {
    const store = createStateStore(dir);
    const entry = { ts: '2025-06-01T12:05:00Z', status: 'posted' as const };
    store.write({ ...STATE, journal: new Map([['__proto__', entry]]) });
    expect(fs.readFileSync(path.join(dir, 'state.json'), 'utf8')).toContain('"__proto__": {');
    const read = store.read()!;
    expect(read.journal!.get('__proto__')).toEqual(entry);
    expect(Object.getPrototypeOf(read)).toBe(Object.prototype);
  });

  it('accepts a file without a version (treated as the current one)', () => {
    seed(JSON.stringify(STATE));
    expect(createStateStore(dir).read()).toEqual(STATE);
  });
});

describe('write: atomic, private from the moment of creation (state-intact, key-at-rest)', () => {
  it('creates the dir 700 (with missing parents) and the file 600, leaving no temp file', () => {
    const nested = path.join(root, 'a', 'b', 'config');
    const store = createStateStore(nested);
    store.write(STATE);
    expect(mode(nested)).toBe(0o700);
    expect(mode(store.file)).toBe(0o600);
    expect(fs.readdirSync(nested)).toEqual(['state.json']);
    expect(JSON.parse(fs.readFileSync(store.file, 'utf8'))).toEqual({ ...STATE, version: 1 });
  });

  it('takes the modes from creation, not from the umask: the file is created 600, the dir 700', () => {
    const calls: Array<{ name: string; args: unknown[] }> = [];
    const previous = process.umask(0);
    try {
      createStateStore(dir, { files: watched(calls) }).write(STATE);
    } finally {
      process.umask(previous);
    }
    expect(mode(dir)).toBe(0o700);
    expect(mode(path.join(dir, 'state.json'))).toBe(0o600);
    expect(calls.filter((c) => c.name === 'mkdirSync').map((c) => c.args[1])).toEqual([
      { recursive: true, mode: 0o700 },
    ]);
    // One file is created, exclusively, already private: it is never on disk with a looser mode.
    const created = calls.filter(
      (c) => c.name === 'openSync' && typeof c.args[1] === 'number' && (c.args[1] & fs.constants.O_CREAT) !== 0,
    );
    expect(created).toHaveLength(1);
    const [temp, flags, fileMode] = created[0]!.args;
    expect(path.dirname(String(temp))).toBe(dir);
    expect((flags as number) & fs.constants.O_EXCL).toBe(fs.constants.O_EXCL);
    expect(fileMode).toBe(0o600);
    const names = calls.map((c) => c.name);
    expect(names).toContain('renameSync');
    expect(names).not.toContain('chmodSync');
    expect(names).not.toContain('fchmodSync');
  });

  it('the fence after the rename comes right after it, before the directory sync and the tidying (one-writer)', () => {
    const calls: Array<{ name: string; args: unknown[] }> = [];
    const files = watched(calls);
    const fenced: number[] = [];
    // The second fence is the one after the rename: a run stopped between the rename and it may have
    // been taken over, so nothing slow (an fsync of the dir, a readdir) may stand between them.
    createStateStore(dir, { files }).write(STATE, undefined, () => fenced.push(calls.length));
    const rename = calls.findIndex((c) => c.name === 'renameSync');
    expect(fenced).toHaveLength(2);
    expect(fenced[1]).toBe(rename + 1);
  });

  it('replaces the old file as a whole', () => {
    const store = createStateStore(dir);
    store.write(STATE);
    store.write({ ...STATE, cursor: null });
    expect(store.read()?.cursor).toBeNull();
    expect(fs.readdirSync(dir)).toEqual(['state.json']);
  });

  it.each([
    ['the write', 'writeFileSync'],
    ['the fsync', 'fsyncSync'],
    ['the rename', 'renameSync'],
  ] as const)('when %s fails, the old file is intact and no temp file is left', (_what, call) => {
    const store = createStateStore(dir);
    store.write(STATE);
    const before = fs.readFileSync(store.file, 'utf8');
    const files = failing(call, systemError('ENOSPC'));
    const error = thrown(() => createStateStore(dir, { files }).write({ ...STATE, cursor: null }));
    expect(error).toBeInstanceOf(StateError);
    expect(error.reason).toBe('io');
    expect(error.message).toBe(`cannot write ${store.file} (ENOSPC)`);
    expect(error.hint).toBe('the disk is full');
    expect(fs.readFileSync(store.file, 'utf8')).toBe(before);
    expect(fs.readdirSync(dir)).toEqual(['state.json']);
  });

  it('the fence runs right before the rename and right after it; refused before, the old file is intact and no temp file is left (one-writer)', () => {
    const store = createStateStore(dir);
    store.write(STATE);
    const before = fs.readFileSync(store.file, 'utf8');
    const seen: string[] = [];
    store.write({ ...STATE, agentName: 'two' }, undefined, () => void seen.push(store.read()!.agentName));
    expect(seen).toEqual(['bot', 'two']);
    const refused = new LockLostError('taken over');
    expect(() =>
      store.write({ ...STATE, cursor: null }, undefined, () => {
        throw refused;
      }),
    ).toThrow(refused);
    expect(store.read()?.agentName).toBe('two');
    expect(fs.readFileSync(store.file, 'utf8')).not.toBe(before);
    expect(fs.readdirSync(dir)).toEqual(['state.json']);
  });

  it('stamp: a new one for every write, none without a file', () => {
    const store = createStateStore(dir);
    expect(store.stamp()).toBeUndefined();
    store.write(STATE);
    const first = store.stamp();
    expect(first).toBeDefined();
    expect(store.stamp()).toBe(first);
    store.write(STATE);
    expect(store.stamp()).not.toBe(first);
  });
});

describe('reserve: the disk space of a first state, taken before it exists (registration)', () => {
  it('creates a private temp file now, and commit turns it into exactly the state', () => {
    const store = createStateStore(dir);
    const reserved = store.reserve();
    const [temp] = fs.readdirSync(dir);
    expect(temp).toMatch(/^\.state\.json\..*\.tmp$/);
    expect(mode(path.join(dir, temp!))).toBe(0o600);
    expect(fs.statSync(path.join(dir, temp!)).size).toBeGreaterThanOrEqual(4096);
    reserved.commit(STATE);
    expect(fs.readdirSync(dir)).toEqual(['state.json']);
    expect(mode(store.file)).toBe(0o600);
    expect(store.read()).toEqual({ ...STATE, version: 1 });
    expect(fs.readFileSync(store.file, 'utf8')).not.toMatch(/\s{3,}$/);
  });

  it('a state larger than the reservation is written whole', () => {
    const store = createStateStore(dir);
    const big = { ...STATE, apiKey: `hive_${'k'.repeat(10_000)}` };
    store.reserve().commit(big);
    expect(store.read()?.apiKey).toBe(big.apiKey);
  });

  it('abandon leaves nothing behind', () => {
    const store = createStateStore(dir);
    store.reserve().abandon();
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it.each([
    ['the reservation cannot be created', 'openSync'],
    ['the reservation cannot be filled (disk full)', 'writeFileSync'],
    ['the reservation cannot be flushed', 'fsyncSync'],
  ] as const)('fails at once when %s: a StateError naming the state file, nothing left', (_what, call) => {
    const store = createStateStore(dir);
    store.prepareDir();
    const error = thrown(() => createStateStore(dir, { files: failing(call, systemError('ENOSPC')) }).reserve());
    expect(error).toBeInstanceOf(StateError);
    expect(error.message).toBe(`cannot write ${store.file} (ENOSPC)`);
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it.each([
    ['the content cannot be written', 'writeFileSync', 2],
    ['the reservation cannot be cut to size', 'ftruncateSync', 1],
    ['the rename fails', 'renameSync', 1],
  ] as const)('a commit that fails when %s is a StateError, and leaves no temp file', (_what, call, nth) => {
    const store = createStateStore(dir);
    // The first writeFileSync fills the reservation; the one to fail is the commit's.
    let calls = 0;
    const real = fs[call] as (...args: unknown[]) => unknown;
    const files = {
      ...fs,
      [call]: (...args: unknown[]) => {
        if (++calls < nth) return real(...args);
        throw systemError('ENOSPC');
      },
    } as FileOps;
    const reserved = createStateStore(dir, { files }).reserve();
    const error = thrown(() => reserved.commit(STATE));
    expect(error).toBeInstanceOf(StateError);
    expect(error.message).toBe(`cannot write ${store.file} (ENOSPC)`);
    expect(fs.readdirSync(dir)).toEqual([]);
  });
});

describe('a config dir or state file that belongs to another user is refused', () => {
  // Files made by this test belong to whoever runs it; the running user is injected as someone else.
  const ownerUid = process.getuid!();
  const names: Record<number, string> = { [ownerUid]: 'owner', 4242: 'cronuser' };
  const as = (uid: number) => ({ uid, nameOf: (id: number) => names[id] });

  it('reading: the dir, naming its owner, the running user and the chown that fixes it', () => {
    createStateStore(dir).write(STATE);
    const error = thrown(() => createStateStore(dir, { user: as(4242) }).read());
    expect(error).toBeInstanceOf(StateError);
    expect(error.reason).toBe('foreign');
    expect(error.exitCode).toBe(EXIT.unexpected);
    expect(error.message).toMatch(
      new RegExp(
        `^the config directory ${dir} belongs to owner \\(uid ${ownerUid}\\), but this runs as cronuser \\(uid 4242\\)`,
      ),
    );
    expect(error.hint).toBe(`run agent as owner, or give the directory to cronuser: sudo chown -R cronuser '${dir}'`);
  });

  // Handing the dir to uid 4242 takes root (CI runs as root).
  it.skipIf(process.getuid?.() !== 0)('reading: a state file of another user in a dir of ours', () => {
    createStateStore(dir).write(STATE);
    fs.chownSync(dir, 4242, -1);
    try {
      const error = thrown(() => createStateStore(dir, { user: as(4242) }).read());
      expect(error.reason).toBe('foreign');
      expect(error.message).toContain(`the state file ${path.join(dir, 'state.json')} belongs to owner`);
    } finally {
      fs.chownSync(dir, ownerUid, -1);
    }
  });

  it('writing and preparing the dir, before anything is written; uids without a name are shown as numbers', () => {
    createStateStore(dir).prepareDir();
    const stranger = { uid: 4343, nameOf: () => undefined };
    expect(thrown(() => createStateStore(dir, { user: stranger }).write(STATE)).message).toContain(
      `belongs to uid ${ownerUid}, but this runs as uid 4343`,
    );
    expect(thrown(() => createStateStore(dir, { user: stranger }).reserve()).reason).toBe('foreign');
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('its owner, root included, is fine; so is a platform without uids', () => {
    createStateStore(dir, { user: as(ownerUid) }).write(STATE);
    expect(createStateStore(dir, { user: as(ownerUid) }).read()?.agentName).toBe('bot');
    expect(createStateStore(dir).read()?.agentName).toBe('bot');
  });
});

describe('a config dir this user may not write (running as root, so the failures are injected)', () => {
  const denied = () => systemError('EACCES');

  it('a state file that cannot be created: says which file and what to check, not "a bug"; nothing left behind', () => {
    const store = createStateStore(dir);
    store.write(STATE);
    const before = fs.readFileSync(store.file, 'utf8');
    const error = thrown(() =>
      createStateStore(dir, { files: failing('openSync', denied()) }).write({ ...STATE, cursor: null }),
    );
    expect(error).toBeInstanceOf(StateError);
    expect(error.reason).toBe('io');
    expect(error.exitCode).toBe(EXIT.unexpected);
    expect(error.message).toBe(`cannot write ${store.file} (EACCES)`);
    expect(error.hint).toContain('belong to the user this runs as');
    expect(fs.readFileSync(store.file, 'utf8')).toBe(before);
    expect(fs.readdirSync(dir)).toEqual(['state.json']);
  });

  it('a write that is done is not failed by the tidying after it (listing old temp files)', () => {
    const store = createStateStore(dir, { files: failing('readdirSync', systemError('EACCES')) });
    store.write(STATE);
    expect(store.read()?.cursor).toEqual(STATE.cursor);
  });

  it('a config dir that cannot be created', () => {
    const error = thrown(() => createStateStore(dir, { files: failing('mkdirSync', denied()) }).write(STATE));
    expect(error).toBeInstanceOf(StateError);
    expect(error.reason).toBe('io');
    expect(error.message).toBe(`cannot create the config directory ${dir} (EACCES)`);
    expect(error.hint).toContain('belong to the user this runs as');
    expect(fs.existsSync(dir)).toBe(false);
  });

  it('a state file that cannot be read', () => {
    const store = createStateStore(dir);
    store.write(STATE);
    const error = thrown(() => createStateStore(dir, { files: failing('readFileSync', denied()) }).read());
    expect(error).toBeInstanceOf(StateError);
    expect(error.reason).toBe('io');
    expect(error.message).toBe(`cannot read the state file ${store.file} (EACCES)`);
    expect(error.hint).toContain('belong to the user this runs as');
  });
});

describe('modes open to others are refused, naming the path and the chmod that fixes it (key-at-rest)', () => {
  it.each([0o755, 0o750, 0o711, 0o701, 0o770])('dir %s', (dirMode) => {
    const file = seed(JSON.stringify(STATE), 0o600, dirMode);
    const before = fs.readFileSync(file, 'utf8');
    for (const run of [
      () => createStateStore(dir).read(),
      () => createStateStore(dir).write(STATE),
      () => createStateStore(dir).prepareDir(),
    ]) {
      const error = thrown(run);
      expect(error).toBeInstanceOf(StateError);
      expect(error.reason).toBe('exposed');
      expect(error.exitCode).toBe(EXIT.unexpected);
      expect(error.message).toContain(dir);
      expect(error.message).toContain(`mode ${dirMode.toString(8)}`);
      expect(error.hint).toBe(`run: chmod 700 '${dir}'`);
    }
    expect(fs.readFileSync(file, 'utf8')).toBe(before);
  });

  it.each([0o644, 0o640, 0o604, 0o660, 0o666])('file %s', (fileMode) => {
    const file = seed(JSON.stringify(STATE), fileMode);
    const error = thrown(() => createStateStore(dir).read());
    expect(error).toBeInstanceOf(StateError);
    expect(error.reason).toBe('exposed');
    expect(error.message).toContain(file);
    expect(error.message).toContain('other users could read or change the API key');
    expect(error.hint).toBe(`run: chmod 600 '${file}'`);
  });

  it.each([0o600, 0o400])('file %s is fine', (fileMode) => {
    seed(JSON.stringify(STATE), fileMode);
    expect(createStateStore(dir).read()).toEqual(STATE);
  });
});

describe('anything but a private regular file is refused', () => {
  it('a symlink, even to a private file, and its target is untouched', () => {
    fs.mkdirSync(dir, { mode: 0o700 });
    const target = path.join(root, 'elsewhere.json');
    fs.writeFileSync(target, JSON.stringify(STATE), { mode: 0o600 });
    fs.symlinkSync(target, path.join(dir, 'state.json'));
    const error = thrown(() => createStateStore(dir).read());
    expect(error).toBeInstanceOf(StateError);
    expect(error.message).toBe(`${path.join(dir, 'state.json')} is not a regular file`);
    expect(fs.readFileSync(target, 'utf8')).toBe(JSON.stringify(STATE));
  });

  it('a dangling symlink', () => {
    fs.mkdirSync(dir, { mode: 0o700 });
    fs.symlinkSync(path.join(root, 'missing.json'), path.join(dir, 'state.json'));
    expect(thrown(() => createStateStore(dir).read())).toBeInstanceOf(StateError);
  });

  it('a directory in place of the file', () => {
    fs.mkdirSync(path.join(dir, 'state.json'), { recursive: true, mode: 0o700 });
    expect(thrown(() => createStateStore(dir).read()).message).toContain('is not a regular file');
  });

  it('a file in place of the config dir', () => {
    fs.writeFileSync(dir, '', { mode: 0o600 });
    for (const run of [() => createStateStore(dir).prepareDir(), () => createStateStore(dir).write(STATE)]) {
      const error = thrown(run);
      expect(error).toBeInstanceOf(StateError);
      expect(error.message).toBe(`cannot create the config directory ${dir} (EEXIST)`);
    }
    expect(() => createStateStore(dir).read()).toThrow(StateError);
  });
});

describe('a corrupt file is an error naming it, never "start over"; the file is left as it is (state-intact)', () => {
  const cases: Array<[what: string, content: string, says: RegExp]> = [
    ['empty', '', /is corrupt \(not JSON\)/],
    ['truncated', JSON.stringify(STATE).slice(0, 40), /is corrupt \(not JSON\)/],
    ['binary junk', '\u0000\u0001\u0002', /is corrupt \(not JSON\)/],
    ['an array', '[]', /is not valid \(root: /],
    ['null', 'null', /is not valid/],
    ['no apiKey', JSON.stringify({ ...STATE, apiKey: undefined }), /is not valid \(apiKey: /],
    ['an empty apiKey', JSON.stringify({ ...STATE, apiKey: '' }), /is not valid \(apiKey: /],
    ['no cursor key', JSON.stringify({ ...STATE, cursor: undefined }), /is not valid \(cursor: /],
    [
      'a cursor without id',
      JSON.stringify({ ...STATE, cursor: { timestamp: '2025-06-01T12:00:00Z' } }),
      /is not valid \(cursor\.id: /,
    ],
    // Date.parse reads "foo 1" as 2001-01-01: a cursor there would bring back years of threads.
    [
      'a cursor timestamp that is not ISO 8601',
      JSON.stringify({ ...STATE, cursor: { timestamp: 'foo 1', id: 'a' } }),
      /is not valid \(cursor\.timestamp: not an ISO 8601 date-time\)/,
    ],
    [
      'a cursor timestamp on a day that does not exist',
      JSON.stringify({ ...STATE, cursor: { timestamp: '2025-02-30T00:00:00Z', id: 'a' } }),
      /is not valid \(cursor\.timestamp: /,
    ],
    ['a cursor as text', JSON.stringify({ ...STATE, cursor: '2025-06-01' }), /is not valid \(cursor: /],
    ['no baseUrl', JSON.stringify({ ...STATE, baseUrl: undefined }), /is not valid \(baseUrl: /],
    [
      'a journal entry with an unknown status',
      JSON.stringify({ ...STATE, journal: { a: { ts: 'x', status: 'maybe' } } }),
      /is not valid \(journal\.a\.status: expected one of posting, /,
    ],
    [
      'a journal as a list',
      JSON.stringify({ ...STATE, journal: [{ ts: 'x', status: 'posted' }] }),
      /is not valid \(journal: expected an object\)/,
    ],
    [
      'a journal entry as text',
      JSON.stringify({ ...STATE, journal: { a: { ts: 'x', status: 'posted' }, b: 'posted' } }),
      /is not valid \(journal\.b: expected an object\)/,
    ],
    [
      'a journal entry without ts',
      JSON.stringify({ ...STATE, journal: { a: { status: 'posted' } } }),
      /is not valid \(journal\.a\.ts: expected a string\)/,
    ],
    [
      'a journal entry with tries as text',
      JSON.stringify({ ...STATE, journal: { a: { ts: 'x', status: 'failed', tries: '2' } } }),
      /is not valid \(journal\.a\.tries: expected a number\)/,
    ],
    [
      'a journal entry with a reason as a number',
      JSON.stringify({ ...STATE, journal: { a: { ts: 'x', status: 'skipped', reason: 5 } } }),
      /is not valid \(journal\.a\.reason: expected a string\)/,
    ],
    [
      'a newer version',
      JSON.stringify({ ...STATE, version: 2 }),
      /was written by a newer version of agent \(state version 2\)/,
    ],
  ];

  it.each(cases)('%s', (_what, content, says) => {
    const file = seed(content);
    const before = fs.statSync(file);
    const error = thrown(() => createStateStore(dir).read());
    expect(error).toBeInstanceOf(StateError);
    expect(error.reason).toBe('corrupt');
    expect(error.exitCode).toBe(EXIT.unexpected);
    expect(error.message).toContain(file);
    expect(error.message).toMatch(says);
    expect(error.message).not.toContain(STATE.apiKey);
    expect(fs.readFileSync(file, 'utf8')).toBe(content);
    expect(fs.statSync(file).mtimeMs).toBe(before.mtimeMs);
    expect(fs.readdirSync(dir)).toEqual(['state.json']);
  });

  it('parseState names the file it was given', () => {
    expect(() => parseState('{', '/some/where/state.json')).toThrow('/some/where/state.json');
  });
});

describe('backup', () => {
  it('copies the state aside, mode 600, named by the stamp', () => {
    const store = createStateStore(dir);
    store.write(STATE);
    const copy = store.backup('2025-06-01T12:00:00.000Z');
    expect(copy).toBe(path.join(dir, 'state.20250601T120000000Z.bak.json'));
    expect(mode(copy)).toBe(0o600);
    expect(fs.readFileSync(copy, 'utf8')).toBe(fs.readFileSync(store.file, 'utf8'));
    expect(fs.readdirSync(dir).sort()).toEqual(['state.20250601T120000000Z.bak.json', 'state.json']);
  });

  it('a stamp cannot lead out of the dir', () => {
    const store = createStateStore(dir);
    store.write(STATE);
    expect(path.dirname(store.backup('../../x/y'))).toBe(dir);
  });
});
