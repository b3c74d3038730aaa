import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StateError } from '../../src/errors.js';
import { createStateStore } from '../../src/state/state-store.js';

// `agents/<name>` may be a symbolic link, even to `/`. A fix printed for the config dir must name the
// directory it resolves to, and must never be a chmod or chown of a directory this user does not own or
// of a system directory: pasted as root, `chmod 700` of a link to `/` would lock every other user out.

let root: string;
beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'agent-dirfix-')));
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

const uid = process.getuid?.() ?? 0;
const as = (id: number) => ({ uid: id, nameOf: (n: number) => (n === 0 ? 'root' : undefined) });

function refusal(dir: string, user = as(uid)): StateError {
  try {
    createStateStore(dir, { user }).read();
  } catch (error) {
    expect(error).toBeInstanceOf(StateError);
    return error as StateError;
  }
  throw new Error('expected a refusal');
}

function linkTo(target: string): string {
  const link = path.join(root, 'agents', 'x');
  fs.mkdirSync(path.dirname(link), { recursive: true });
  fs.symlinkSync(target, link);
  return link;
}

describe('the fix for a config dir open to others, or another user’s', () => {
  it('a link to /: names /, and advises no chmod or chown of it', () => {
    const link = linkTo('/');
    const error = refusal(link);
    expect(error.message).toContain(`${link} (a link to /)`);
    expect(error.hint).not.toMatch(/chmod|chown/);
    expect(error.hint).toContain('system directory');
  });

  it('a link to a private dir of this user with a loose mode: the chmod names the resolved directory', () => {
    const real = path.join(root, 'real');
    fs.mkdirSync(real, { mode: 0o755 });
    fs.chmodSync(real, 0o755);
    const link = linkTo(real);
    const error = refusal(link);
    expect(error.message).toContain(`${link} (a link to ${real}) has mode 755`);
    expect(error.hint).toBe(`run: chmod 700 '${real}'`);
  });

  it.skipIf(uid !== 0)('a dir another user owns: no chmod of it (this user could not, or should not)', () => {
    const theirs = path.join(root, 'theirs');
    fs.mkdirSync(theirs, { mode: 0o755 });
    fs.chmodSync(theirs, 0o755);
    fs.chownSync(theirs, 65534, 65534);
    const error = refusal(theirs);
    expect(error.hint).not.toMatch(/chmod|chown/);
    expect(error.hint).toContain('belongs to uid 65534');
  });

  it('a system dir, run as another user: no chmod, nor sudo chown -R, of it', () => {
    expect(refusal(linkTo('/usr/bin'), as(4242)).hint).not.toMatch(/chmod|chown/);
  });

  it.skipIf(!fs.existsSync('/root') || (fs.statSync('/root').mode & 0o077) !== 0)(
    "root's home (private), run as another user: no sudo chown -R of it",
    () => {
      const error = refusal(linkTo('/root'), as(4242));
      expect(error.reason).toBe('foreign');
      expect(error.message).toContain('(a link to /root)');
      expect(error.hint).not.toMatch(/chmod|chown/);
    },
  );
});
