import { nodeFileOps, type FileOps } from '../../src/state/file-ops.js';

/** An error as the file system gives it: with its code (EACCES, ENOSPC…). */
export function systemError(code: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: injected`), { code });
}

/** Node's file operations, except that the first `times` calls of `name` throw `error`. */
export function failing(name: keyof FileOps, error: Error, times = 1): FileOps {
  let failures = 0;
  const real = nodeFileOps[name] as (...args: unknown[]) => unknown;
  const op = (...args: unknown[]) => {
    if (failures >= times) return real(...args);
    failures += 1;
    throw error;
  };
  return { ...nodeFileOps, [name]: op };
}

/** Node's file operations, each call recorded in `calls`. */
export function watched(calls: Array<{ name: string; args: unknown[] }>): FileOps {
  const ops: Record<string, unknown> = {};
  for (const [name, op] of Object.entries(nodeFileOps) as Array<[string, unknown]>) {
    if (typeof op !== 'function') continue;
    ops[name] = (...args: unknown[]) => {
      calls.push({ name, args });
      return op(...args);
    };
  }
  return ops as unknown as FileOps;
}
