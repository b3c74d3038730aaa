import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// Every test's temporary dirs go into one dir of this run (os.tmpdir() reads TMPDIR, and the workers and
// the programs they spawn inherit it), so a test that leaves one behind fails the run by name, whatever
// else runs on the machine at the same time.
//
// Vitest runs a global setup once for the root config and once for each project that extends it: only
// the first one makes the dir, so that paths stay as short as a user's (messages cut long ones with "…").
const OWNER = 'AGENT_TESTS_TMPDIR';

export default function setup(): () => void {
  if (process.env[OWNER]) return () => {};
  const own = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-tests-'));
  // mkdtemp makes it 700; the tests that run the program as another user (nobody, when the tests run as
  // root) need to pass through it to the dirs they give that user, as they could through /tmp.
  fs.chmodSync(own, 0o711);
  process.env[OWNER] = own;
  process.env.TMPDIR = own;
  return () => {
    // Node 22 and later keep their compile cache in the temp dir (module.enableCompileCache, which the
    // command turns on): Node's own, not a test's.
    const left = fs.readdirSync(own).filter((name) => name !== 'node-compile-cache');
    fs.rmSync(own, { recursive: true, force: true });
    if (left.length === 0) return;
    // Vitest reports a teardown's error but exits 0 for it: the exit code is set here.
    console.error(`tests left temporary dirs behind: ${left.sort().join(', ')}`);
    process.exitCode = 1;
  };
}
