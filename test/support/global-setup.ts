import { execFileSync } from 'node:child_process';

// End-to-end tests run the built binary, exactly as a user's cron would: build it once per test run.
export default function setup(): void {
  execFileSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' });
}
