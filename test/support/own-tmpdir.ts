import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// Every test's temporary dirs go into one dir of this run (os.tmpdir() reads TMPDIR, and the workers and
// the programs they spawn inherit it), so a test that leaves one behind fails the run by name, whatever
// else runs on the machine at the same time.
export default function setup(): () => void {
  const own = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-tests-'));
  process.env.TMPDIR = own;
  return () => {
    const left = fs.readdirSync(own);
    fs.rmSync(own, { recursive: true, force: true });
    if (left.length === 0) return;
    // Vitest reports a teardown's error but exits 0 for it: the exit code is set here.
    console.error(`tests left temporary dirs behind: ${left.sort().join(', ')}`);
    process.exitCode = 1;
  };
}
