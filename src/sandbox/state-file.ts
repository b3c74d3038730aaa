// `--state <file>`: the store on disk. The file holds key hashes and the hidden outcomes, so it is private
// (mode 600 from the moment it exists) and replaced atomically (temp file in the same dir, fsync, rename),
// the same way the client writes its own state: https://github.com/npm/write-file-atomic
import { mkdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { writeFileAtomic } from '../state/private-file.js';
import { SandboxStore } from './sandbox-store.js';

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
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  writeFileAtomic(path, `${JSON.stringify(store.toJSON())}\n`, { mode: 0o600 });
  store.dirty = false;
}

/**
 * Where the clock of the sandbox saved at `path` had got to: its newest thread's time (the feed creates
 * each thread at the clock's present); undefined without a file or threads.
 */
export function savedClockOf(path: string): number | undefined {
  return loadStoreFile(path)?.threads().at(-1)?.timestampMs;
}
