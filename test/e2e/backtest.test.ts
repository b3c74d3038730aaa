import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PROFILE_FLAGS, registeredWorlds, runAgent } from './harness.js';

// docs/cli.md backtest: the profile measured is the registered agent's when there is one (what its polls
// would do), each profile flag overriding its field; without an agent, the middle-of-the-range defaults.

const SAMPLE = path.join(import.meta.dirname, '..', '..', 'examples', 'backtest-sample.json');
const registered = registeredWorlds();
const homes: string[] = [];
afterEach(() => {
  for (const dir of homes.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

// The harness registers onchain, moderate, neutral, active.
const REGISTERED = {
  signal_method: 'onchain',
  conviction_style: 'moderate',
  directional_bias: 'neutral',
  participation: 'active',
};
const profileRequests = (w: { sandbox: { requests: Array<{ method: string; path: string }> } }) =>
  w.sandbox.requests.filter((r) => r.method === 'GET' && r.path === '/agent/me');

describe('backtest profile', () => {
  it('a registered agent: its own profile, said in the heading', async () => {
    const w = await registered();
    const json = await w.agent(['backtest', SAMPLE, '--json']);
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout).profile).toEqual(REGISTERED);
    const text = await w.agent(['backtest', SAMPLE]);
    expect(text.stdout).toContain(
      "profile --signal-method onchain --conviction-style moderate --directional-bias neutral --participation active (the registered agent's)",
    );
  });

  it('a flag overrides its field; the rest stay the registered ones', async () => {
    const w = await registered();
    const result = await w.agent(['backtest', SAMPLE, '--participation', 'selective', '--json']);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout).profile).toEqual({ ...REGISTERED, participation: 'selective' });
  });

  it('all four flags: no request at all, offline', async () => {
    const w = await registered();
    const before = profileRequests(w).length;
    await w.sandbox.close();
    const result = await w.agent([
      'backtest',
      SAMPLE,
      ...PROFILE_FLAGS.slice(0, 6),
      '--participation',
      'moderate',
      '--json',
    ]);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout).profile).toEqual({ ...REGISTERED, participation: 'moderate' });
    expect(profileRequests(w)).toHaveLength(before);
  });

  it('a registered agent whose service cannot be reached: says how to run offline, exit 5', async () => {
    const w = await registered();
    await w.sandbox.close();
    const result = await w.agent(['backtest', SAMPLE]);
    expect(result.code).toBe(5);
    expect(result.stderr).toContain("cannot read the registered agent's profile");
    expect(result.stderr).toContain('give all four profile flags');
  });

  it('no agent registered: the defaults, and no request', async () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-backtest-'));
    homes.push(home);
    const result = await runAgent(['--config-dir', path.join(home, 'cfg'), 'backtest', SAMPLE, '--json'], home);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout).profile).toEqual({
      signal_method: 'sentiment',
      conviction_style: 'moderate',
      directional_bias: 'neutral',
      participation: 'moderate',
    });
  });
});
