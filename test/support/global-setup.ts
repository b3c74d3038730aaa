import { execFileSync } from 'node:child_process';

// End-to-end tests run the built binary, exactly as a user's cron would: build it once per test run, with
// the test build beside it for the tests that inject faults (test/support/test-entry.ts).
// AGENT_TEST_SKIP_BUILD=1 skips it for a quick run of unit tests while another build is in progress.
export default function setup(): void {
  if (process.env.AGENT_TEST_SKIP_BUILD === '1') return;
  execFileSync(process.execPath, ['scripts/build.mjs', '--with-test-entry'], { stdio: 'inherit' });
}
