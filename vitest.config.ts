import os from 'node:os';
import { defineConfig } from 'vitest/config';

// Two projects, so the everyday loop needs no build: "unit" runs in-process (no child process, no bundle;
// test/support/unit-no-spawn.ts fails a test that tries), "process" spawns programs (the built binary,
// example and command analyzers) and builds the bundle first. `npm test` runs both; `npm run test:unit`
// only the first.
const spawnsProcesses = [
  'test/e2e/**/*.test.ts',
  'test/build/bundle-rules.test.ts',
  'test/build/packed-tarball.test.ts',
  'test/examples/**/*.test.ts',
  'test/analysis/command/**/*.test.ts',
  'test/analysis/load.test.ts',
  'test/commands/poll/run-budget.test.ts',
  'test/cost/regex-cost.test.ts',
];

export default defineConfig({
  test: {
    reporters: ['default', './test/support/summary-reporter.ts'],
    globalSetup: ['./test/support/own-tmpdir.ts'],
    // End-to-end tests spawn the built binary; keep a generous per-test ceiling so a slow 2-core CI
    // machine does not flake, while a hung test still fails.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts'],
          exclude: spawnsProcesses,
          setupFiles: ['./test/support/unit-no-spawn.ts'],
          // Vitest leaves one core free by default: on a 2-core machine that is one worker, and the unit
          // run took 38 s instead of 22 s. In-process tests spawn nothing, so every core can take one.
          maxWorkers: os.availableParallelism(),
          // Projects with different worker counts run one after the other: the quick unit tests first.
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'process',
          include: spawnsProcesses,
          globalSetup: ['./test/support/global-setup.ts'],
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
