import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { startSandbox, type RunningSandbox, type SandboxOptions } from '../../src/sandbox/index.js';

/**
 * For a test file that runs commands in-process: each test gets its own sandbox service and an empty
 * temporary directory, both gone after it.
 */
export function sandboxPerTest(
  prefix: string,
  options: SandboxOptions = {},
): { readonly sandbox: RunningSandbox; readonly dir: string } {
  let sandbox: RunningSandbox | undefined;
  let dir: string | undefined;
  beforeEach(async () => {
    sandbox = await startSandbox(options);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  });
  afterEach(async () => {
    await sandbox?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });
  return {
    get sandbox() {
      return sandbox!;
    },
    get dir() {
      return dir!;
    },
  };
}
