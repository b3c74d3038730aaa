import type { Stats } from 'node:fs';
import { join } from 'node:path';
import { StateError } from '../errors.js';
import { nodeFileOps, type FileOps } from './file-ops.js';
import {
  DIR_MODE,
  FILE_MODE,
  fileSystemError,
  preparePrivateDir,
  refuseLooseMode,
  reservePrivateFile,
  writePrivateFile,
} from './private-file.js';
import { refuseForeignOwner, type RunningUser } from './owner.js';
import { STATE_VERSION, stateSchema, type State } from './schema.js';
import { shownPath } from '../output/sanitize.js';

export interface StateStore {
  readonly dir: string;
  readonly file: string;
  /** The state, or undefined when nobody has registered here. Corrupt or exposed state is an error. */
  read(): State | undefined;
  /**
   * Atomic: readers see the complete old or the complete new file, never a part (state-intact). `fence`
   * runs as late before the rename as it can, and again after it: it throws to refuse the write (one-writer).
   */
  write(state: State, text?: string, fence?: () => void): void;
  /** What tells this file's version apart from the next one's (a write renames a new file in), or undefined. */
  stamp(): string | undefined;
  /** Copies the current state aside (mode 600) and returns the copy's path. */
  backup(stamp: string): string;
  /** Creates the directory (mode 700) if needed; refuses one others can open (key-at-rest) or another user owns. */
  prepareDir(): void;
  /** Takes the disk space of a state before it exists (registration: see reservePrivateFile). */
  reserve(): { commit(state: State): void; abandon(): void };
}

// A state at registration (key, name, id, address) is a few hundred bytes: a page is ample.
const RESERVED_BYTES = 4096;

const KEY_RISK = 'read or change the API key';

/**
 * The last state parsed, with the text it came from. A resident `poll --watch` reads the state every
 * cycle, and parsing a week's journal (a few thousand entries) cost each idle cycle ~15 ms; the same text
 * parses to the same state. The checks on the file (modes, owner) still run on every read. A State is
 * never changed in place (updates make new objects), so sharing it is safe.
 */
let lastRead: { file: string; raw: string; state: State } | undefined;

export function createStateStore(
  dir: string,
  options: { beforeRename?: () => void; files?: FileOps; user?: RunningUser } = {},
): StateStore {
  const files = options.files ?? nodeFileOps;
  const { user } = options;
  const file = join(dir, 'state.json');
  function read(): State | undefined {
    let dirStat: Stats;
    try {
      dirStat = files.statSync(dir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw fileSystemError('read the config directory', dir, error);
    }
    refuseLooseMode(dir, dirStat, DIR_MODE, 'the config directory', KEY_RISK, user?.uid);
    // Every command may write here (the lock, a 429's pause), so another user's dir is refused at once.
    refuseForeignOwner(dir, dirStat, user, 'the config directory', dir);
    let raw: string;
    try {
      const stat = files.lstatSync(file);
      if (!stat.isFile())
        throw new StateError(`${shownPath(file)} is not a regular file`, 'exposed', {
          hint: 'move it away and register again',
        });
      refuseLooseMode(file, stat, FILE_MODE, 'the state file', KEY_RISK);
      refuseForeignOwner(file, stat, user, 'the state file', dir);
      raw = files.readFileSync(file, 'utf8');
    } catch (error) {
      if (error instanceof StateError) throw error;
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw fileSystemError('read the state file', file, error);
    }
    if (lastRead?.file === file && lastRead.raw === raw) return lastRead.state;
    const state = parseState(raw, file);
    lastRead = { file, raw, state };
    return state;
  }

  return {
    dir,
    file,
    read,
    prepareDir: () => preparePrivateDir(dir, files, user),
    write(state, text = serializeState(state), fence) {
      preparePrivateDir(dir, files, user);
      const beforeRename = () => {
        options.beforeRename?.();
        fence?.();
      };
      writePrivateFile(file, text, { beforeRename, afterRename: fence, files });
    },
    stamp() {
      try {
        const { ino, size, mtimeMs } = files.statSync(file);
        return `${ino}:${size}:${mtimeMs}`;
      } catch {
        return undefined;
      }
    },
    reserve() {
      preparePrivateDir(dir, files, user);
      const reserved = reservePrivateFile(file, RESERVED_BYTES, { beforeRename: options.beforeRename, files });
      return { commit: (state) => reserved.commit(serializeState(state)), abandon: reserved.abandon };
    },
    backup(stamp) {
      const target = join(dir, `state.${stamp.replace(/[^0-9A-Za-z]/g, '')}.bak.json`);
      let current: string;
      try {
        current = files.readFileSync(file, 'utf8');
      } catch (error) {
        throw fileSystemError('read the state file', file, error);
      }
      writePrivateFile(target, current, { files });
      return target;
    },
  };
}

/** The file's content for a state: the journal Map as an object (Object.fromEntries keeps `__proto__` an own key). */
export function serializeState(state: State): string {
  // An empty journal is no journal: a run that handled nothing leaves the file as it found it.
  const journal = state.journal?.size ? Object.fromEntries(state.journal) : undefined;
  return `${JSON.stringify({ ...state, journal, version: STATE_VERSION }, null, 2)}\n`;
}

export function parseState(raw: string, file: string): State {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    throw new StateError(`the state file ${shownPath(file)} is corrupt (not JSON); it was left as it is`, 'corrupt', {
      hint: 'restore it from a backup, or move it away and run "agent register"',
    });
  }
  const result = stateSchema.safeParse(json);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new StateError(
      `the state file ${shownPath(file)} is not valid (${issue?.path.join('.') || 'root'}: ${issue?.message}); it was left as it is`,
      'corrupt',
      {
        hint: 'restore it from a backup, or move it away and run "agent register"',
      },
    );
  }
  if ((result.data.version ?? STATE_VERSION) > STATE_VERSION) {
    throw new StateError(
      `the state file ${shownPath(file)} was written by a newer version of agent (state version ${result.data.version})`,
      'corrupt',
      {
        hint: 'upgrade agent',
      },
    );
  }
  return result.data;
}
