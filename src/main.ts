// The command's entry: the one bundled into dist/agent.cjs. Tests build their own entry around the same
// runProcess (test/support/test-entry.ts), so the shipped command reads no test-only setting.
import { runProcess } from './run-process.js';

void runProcess();
