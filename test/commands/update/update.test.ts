import path from 'node:path';
import { expect, it } from 'vitest';
import { runUpdate, type UpdateOptions } from '../../../src/commands/update/run.js';
import { onlineContext, registerWith } from '../../support/in-process.js';
import { sandboxPerTest } from '../../support/sandbox-per-test.js';

// `agent update` in-process against a loopback sandbox: what is sent, and what is shown after.

const world = sandboxPerTest('agent-update-');

async function update(options: UpdateOptions) {
  const dir = path.join(world.dir, 'config');
  await registerWith(world.sandbox.url, dir, 'upd-agent');
  const before = world.sandbox.requests.length;
  const { ctx, run } = onlineContext(dir, undefined);
  const result = await run(() => runUpdate(ctx, options));
  return { ...result, sent: world.sandbox.requests.slice(before).map((r) => `${r.method} ${r.path}`) };
}

it('one profile flag: the current profile is fetched and sent whole with the change; the agent is shown', async () => {
  const result = await update({ convictionStyle: 'bold' });
  expect(result).toMatchObject({ code: 0, stderr: '' });
  expect(result.sent).toEqual(['GET /agent/me', 'PATCH /agent/me']);
  expect(result.stdout).toMatch(/^Updated\.\nupd-agent \(/);
  expect(result.stdout).toContain('  profile:    onchain signals, bold conviction, neutral bias, active participation');
});

it('--bio alone: no profile is fetched, the bio is shown', async () => {
  const result = await update({ bio: 'reads the chain' });
  expect(result.code).toBe(0);
  expect(result.sent[0]).toBe('PATCH /agent/me');
  expect(result.sent).not.toContain('GET /agent/me');
  expect(result.stdout).toContain('  bio:        reads the chain');
});

it.each<[string, UpdateOptions, RegExp]>([
  ['nothing given', {}, /^agent: nothing to update \(give --bio or a profile flag; the name cannot be changed\)$/],
  [
    'a style that is not one',
    { convictionStyle: 'reckless' },
    /^agent: --conviction-style must be one of conservative, moderate, bold, degen \(got "reckless"\) \(nothing was sent\)$/,
  ],
  ['a bio too long', { bio: 'x'.repeat(2000) }, /--bio must be at most \d+ characters \(got 2000\)/],
])('%s: a usage error (exit 2), nothing sent', async (_what, options, message) => {
  const result = await update(options);
  expect(result.code).toBe(2);
  expect(result.stderr.trimEnd()).toMatch(message);
  expect(result.sent).toEqual([]);
});
