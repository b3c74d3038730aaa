import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { registeredWorlds } from './harness.js';

// The key is masked in whatever form it reaches stdout or stderr, also when the service echoes it back.

const registered = registeredWorlds();

describe('a key holding " and \\ that the service echoes', () => {
  it('is masked in me --json, whose document stays valid JSON', async () => {
    const w = await registered();
    const key = 'hive_0123456789"abc\\def"ghi\\jk';
    const file = path.join(w.configDir, 'state.json');
    fs.writeFileSync(file, JSON.stringify({ ...w.state(), apiKey: key }), { mode: 0o600 });
    w.sandbox.intercept((req, res) => {
      if (req.url !== '/agent/me') return false;
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: 'ag1', name: 'e2e-agent', api_key: key, bio: `my key is ${key}` }));
      return true;
    });
    const json = await w.agent(['me', '--json']);
    expect(json.code, json.stderr).toBe(0);
    expect(json.stdout).not.toContain('def\\"ghi');
    expect(json.stdout).not.toContain('def"ghi');
    expect(JSON.parse(json.stdout)).toMatchObject({ api_key: 'hive_…i\\jk', bio: 'my key is hive_…i\\jk' });
    const human = await w.agent(['me']);
    expect(human.code).toBe(0);
    expect(human.stdout + human.stderr).not.toContain('def"ghi');
  });
});
