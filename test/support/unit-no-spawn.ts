import { vi } from 'vitest';

// The unit project promises a loop with no child process (npm run test:unit). A test that spawns one
// belongs to the "process" project in vitest.config.ts: fail loudly instead of slowing the loop quietly.
vi.mock('node:child_process', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:child_process')>();
  const refuse = (name: string) => () => {
    throw new Error(`${name}() in a unit test: list this test file under spawnsProcesses in vitest.config.ts`);
  };
  const names = ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork'] as const;
  return { ...real, ...Object.fromEntries(names.map((name) => [name, refuse(name)])) };
});
