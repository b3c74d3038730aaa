import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { runMe } from '../../../src/commands/me/run.js';
import { onlineContext, registerWith } from '../../support/in-process.js';
import { sandboxPerTest } from '../../support/sandbox-per-test.js';

// `agent me` in-process against a loopback sandbox; test/e2e/ runs it on the binary (faults, hints).

const world = sandboxPerTest('agent-me-');

it('shows the agent, its profile and counters, the service, and the key masked with where it is kept', async () => {
  const dir = path.join(world.dir, 'config');
  const key = await registerWith(world.sandbox.url, dir, 'me-agent');
  const { ctx, run } = onlineContext(dir, undefined);
  const result = await run(() => runMe(ctx));
  expect(result).toMatchObject({ code: 0, stderr: '' });
  const lines = result.stdout.trimEnd().split('\n');
  expect(lines[0]).toMatch(/^me-agent \(.+\)$/);
  expect(lines).toContain('  profile:    onchain signals, moderate conviction, neutral bias, active participation');
  expect(lines).toContain('  honey 0 · wax 0 · predictions 0');
  expect(lines).toContain(`  service:    ${new URL(world.sandbox.url).origin}`);
  const keyLine = lines.find((line) => line.startsWith('  key:'));
  expect(keyLine).toMatch(/^ {2}key: {8}\S+ in .*state\.json$/);
  expect(result.stdout).not.toContain(key);
  expect(result.stdout).not.toContain(key.slice(5, 20));
});

it('--json: the agent as the service describes it, and no key', async () => {
  const dir = path.join(world.dir, 'config');
  const key = await registerWith(world.sandbox.url, dir, 'me-agent');
  const { ctx, run } = onlineContext(dir, undefined, { json: true });
  const result = await run(() => runMe(ctx));
  expect(result.code).toBe(0);
  expect(JSON.parse(result.stdout)).toMatchObject({
    name: 'me-agent',
    prediction_profile: { signal_method: 'onchain', conviction_style: 'moderate' },
  });
  expect(result.stdout).not.toContain(key);
});

it('not registered: exit 3 with the command that registers, and nothing sent', async () => {
  const dir = path.join(world.dir, 'empty');
  const { ctx, run } = onlineContext(dir, undefined);
  const result = await run(() => runMe(ctx));
  expect(result.code).toBe(3);
  expect(result.stderr).toMatch(/^agent: .*\(.*agent register/);
  expect(world.sandbox.requests).toEqual([]);
  expect(fs.existsSync(path.join(dir, 'state.json'))).toBe(false);
});
