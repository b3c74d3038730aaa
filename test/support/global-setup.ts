import { execFileSync } from 'node:child_process';

// The "process" project's tests run the built binary, exactly as a user's cron would: build it once per test
// run, with the test build beside it for the tests that inject faults (test/support/test-entry.ts).
// AGENT_TEST_SKIP_BUILD=1 skips the build when dist/ is already fresh (a second run of one e2e file); the unit
// project never builds (npm run test:unit).
export default function setup(): void {
  if (process.env.AGENT_TEST_SKIP_BUILD === '1') return;
  execFileSync(process.execPath, ['scripts/build.mjs', '--with-test-entry'], { stdio: 'inherit' });
}
