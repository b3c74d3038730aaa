import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['./test/support/global-setup.ts'],
    reporters: ['default', './test/support/summary-reporter.ts'],
    // End-to-end tests spawn the built binary; keep a generous per-test ceiling so a slow 2-core CI
    // machine does not flake, while a hung test still fails.
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
