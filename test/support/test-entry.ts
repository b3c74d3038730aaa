// The test build's entry: the shipped command's runProcess, plus the hooks that fault-injection tests set
// through AGENT_TEST_* variables. scripts/build.mjs --with-test-entry bundles it into
// test/.build/agent-test.cjs, which the e2e harness runs only for a test that sets one of them; the
// command users run (src/main.ts) reads none.
import { runProcess } from '../../src/run-process.js';

const env = process.env;
const crashAt = env.AGENT_TEST_CRASH_AT;
const timeoutMs = Number(env.AGENT_TEST_REQUEST_TIMEOUT_MS);
const aheadMs = Number(env.AGENT_TEST_CLOCK_AHEAD_MS);

void runProcess({
  // Killed at a named point, as a power cut would (test/e2e/crash.test.ts).
  crashPoint: crashAt ? (point) => void (point === crashAt && process.kill(process.pid, 'SIGKILL')) : undefined,
  fastForward: env.AGENT_TEST_FAST_SLEEP === '1',
  // A run "a day later" without waiting a day (test/e2e/alerts.test.ts: quiet after a day of skips).
  clockAheadMs: Number.isFinite(aheadMs) ? aheadMs : undefined,
  // A stalled server fails fast.
  requestTimeoutMs: Number.isFinite(timeoutMs) && timeoutMs > 0 ? timeoutMs : undefined,
  // Watch cycles a few hundred milliseconds apart, overdue 5 s after one (test/e2e/watch.test.ts).
  watchLimits:
    env.AGENT_TEST_SHORT_WATCH === '1' ? { minIntervalS: 0.05, cycleMs: 5_000, stopGraceMs: 2_000 } : undefined,
  // A process table of the test's making, with or without a cron daemon in it (test/e2e/doctor-cron.test.ts).
  proc: env.AGENT_TEST_PROC || undefined,
});
