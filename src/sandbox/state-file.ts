// `--state <file>`: the store on disk. The file holds key hashes and the hidden outcomes, so it is private
// (mode 600 from the moment it exists) and replaced atomically (temp file in the same dir, fsync, rename),
// the same way the client writes its own state: https://github.com/npm/write-file-atomic
import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { SandboxStore } from './store.js';

/** The store saved at `path`, or undefined when there is no file yet. */
export function loadStoreFile(path: string): SandboxStore | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    return SandboxStore.fromJSON(JSON.parse(text));
  } catch (error) {
    throw new Error(`cannot read sandbox state ${path}: ${(error as Error).message}`);
  }
}

export function saveStoreFile(path: string, store: SandboxStore): void {
  const dir = dirname(path);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const temp = join(dir, `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  const fd = openSync(temp, 'wx', 0o600);
  try {
    writeSync(fd, `${JSON.stringify(store.toJSON())}\n`);
    fsyncSync(fd);
  } catch (error) {
    closeSync(fd);
    rmSync(temp, { force: true });
    throw error;
  }
  closeSync(fd);
  try {
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
  store.dirty = false;
}
