import fs from 'node:fs';
import path from 'node:path';
import { StateError } from '../errors.js';
import { STATE_VERSION, stateSchema, type State } from './schema.js';

const DIR_MODE = 0o700;
const FILE_MODE = 0o600;
const STALE_TEMP_MS = 15 * 60_000;

export interface StateStore {
  readonly dir: string;
  readonly file: string;
  /** The state, or undefined when nobody has registered here. Corrupt or exposed state is an error. */
  read(): State | undefined;
  /** Atomic: readers see the complete old or the complete new file, never a part (R3). */
  write(state: State): void;
  /** Copies the current state aside (mode 600) and returns the copy's path. */
  backup(stamp: string): string;
  /** Creates the directory (mode 700) if needed and refuses one that others can open (S2). */
  prepareDir(): void;
}

export function createStateStore(dir: string, hooks: { beforeRename?: () => void } = {}): StateStore {
  const file = path.join(dir, 'state.json');
  let writes = 0;

  function checkMode(target: string, stat: fs.Stats, wanted: number, kind: string): void {
    if ((stat.mode & 0o077) !== 0) {
      const mode = (stat.mode & 0o777).toString(8);
      throw new StateError(`${kind} ${target} has mode ${mode}: other users could read or change the API key`, 'exposed', {
        hint: `run: chmod ${wanted.toString(8)} '${target}'`,
      });
    }
  }

  function prepareDir(): void {
    // mkdir applies the mode at creation, so the directory is never open even for an instant.
    try {
      fs.mkdirSync(dir, { recursive: true, mode: DIR_MODE });
    } catch (error) {
      // EEXIST here means a file stands where the directory should be.
      throw new StateError(`cannot create the config directory ${dir} (${(error as NodeJS.ErrnoException).code})`, 'io', { cause: error });
    }
    const stat = fs.statSync(dir);
    if (!stat.isDirectory()) throw new StateError(`${dir} is not a directory`, 'io');
    checkMode(dir, stat, DIR_MODE, 'the config directory');
  }

  function read(): State | undefined {
    let dirStat: fs.Stats;
    try {
      dirStat = fs.statSync(dir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw new StateError(`cannot read the config directory ${dir} (${(error as NodeJS.ErrnoException).code})`, 'io');
    }
    checkMode(dir, dirStat, DIR_MODE, 'the config directory');
    let raw: string;
    try {
      const stat = fs.lstatSync(file);
      if (!stat.isFile()) throw new StateError(`${file} is not a regular file`, 'exposed', { hint: 'move it away and register again' });
      checkMode(file, stat, FILE_MODE, 'the state file');
      raw = fs.readFileSync(file, 'utf8');
    } catch (error) {
      if (error instanceof StateError) throw error;
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw new StateError(`cannot read the state file ${file} (${(error as NodeJS.ErrnoException).code})`, 'io');
    }
    return parseState(raw, file);
  }

  function writePrivate(target: string, content: string): void {
    // Unique per process and write; O_EXCL below refuses a name that exists anyway (no crypto needed on the cron path).
    const temp = path.join(dir, `.${path.basename(target)}.${process.pid}.${++writes}.${Date.now().toString(36)}.tmp`);
    // Created with its final mode (never write-then-chmod), exclusively, in the same directory so the
    // rename is atomic.
    const fd = fs.openSync(temp, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL, FILE_MODE);
    try {
      // writeFileSync loops until every byte is written; one writeSync may write fewer (disk full).
      fs.writeFileSync(fd, content);
      fs.fsyncSync(fd);
    } catch (error) {
      fs.closeSync(fd);
      fs.rmSync(temp, { force: true });
      throw error;
    }
    fs.closeSync(fd);
    hooks.beforeRename?.();
    try {
      fs.renameSync(temp, target);
    } catch (error) {
      fs.rmSync(temp, { force: true });
      throw error;
    }
    syncDir(dir);
    removeStaleTemps();
  }

  // A run killed between creating its temp file and renaming it leaves one behind (mode 600, holding
  // the key): removed by a later write once it is older than any run can be.
  function removeStaleTemps(): void {
    const now = Date.now();
    for (const name of fs.readdirSync(dir)) {
      if (!/^\.state\..*\.tmp$/.test(name)) continue;
      const file = path.join(dir, name);
      try {
        if (now - fs.statSync(file).mtimeMs > STALE_TEMP_MS) fs.unlinkSync(file);
      } catch {
        // gone already, or not ours to remove
      }
    }
  }

  return {
    dir,
    file,
    read,
    prepareDir,
    write(state) {
      prepareDir();
      writePrivate(file, `${JSON.stringify({ ...state, version: STATE_VERSION }, null, 2)}\n`);
    },
    backup(stamp) {
      const target = path.join(dir, `state.${stamp.replace(/[^0-9A-Za-z]/g, '')}.bak.json`);
      writePrivate(target, fs.readFileSync(file, 'utf8'));
      return target;
    },
  };
}

export function parseState(raw: string, file: string): State {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    throw new StateError(`the state file ${file} is corrupt (not JSON); it was left as it is`, 'corrupt', {
      hint: 'restore it from a backup, or move it away and run "agent register"',
    });
  }
  const result = stateSchema.safeParse(json);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new StateError(`the state file ${file} is not valid (${issue?.path.join('.') || 'root'}: ${issue?.message}); it was left as it is`, 'corrupt', {
      hint: 'restore it from a backup, or move it away and run "agent register"',
    });
  }
  if ((result.data.version ?? STATE_VERSION) > STATE_VERSION) {
    throw new StateError(`the state file ${file} was written by a newer version of agent (state version ${result.data.version})`, 'corrupt', {
      hint: 'upgrade agent',
    });
  }
  return result.data;
}

// The rename is durable only once the directory entry is; some platforms cannot fsync a directory.
function syncDir(dir: string): void {
  let fd: number | undefined;
  try {
    fd = fs.openSync(dir, 'r');
    fs.fsyncSync(fd);
  } catch {
    // best effort
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}
