import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { BIN, runAgent } from './harness.js';

// A fresh clone before `npm ci` has bin/ but no dist/: the first thing a newcomer runs must say what to do.

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function cloneWithoutBuild(): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-unbuilt-'));
  dirs.push(root);
  fs.mkdirSync(path.join(root, 'bin'));
  fs.copyFileSync(BIN, path.join(root, 'bin', 'agent.cjs'));
  return root;
}

it.each([[['--version']], [['poll']]])(
  'bin/agent.cjs %j without a build says to run npm ci, exit 1, no stack',
  async (args) => {
    const root = cloneWithoutBuild();
    const bin = path.join(root, 'bin', 'agent.cjs');
    const result = await runAgent(args, root, { bin });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      `agent: the command is not built: ${path.join(root, 'dist', 'agent.cjs')} is missing (run "npm ci" in ${root}, or "npm run build" if its dependencies are installed)\n`,
    );
  },
);

it('with --json the same failure is one JSON document on stdout', async () => {
  const root = cloneWithoutBuild();
  const result = await runAgent(['poll', '--json'], root, { bin: path.join(root, 'bin', 'agent.cjs') });
  expect(result.code).toBe(1);
  expect(JSON.parse(result.stdout)).toEqual({
    error: { code: 1, message: `the command is not built: ${path.join(root, 'dist', 'agent.cjs')} is missing` },
  });
});
