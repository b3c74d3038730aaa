import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BULLISH, minutesAgo, registeredWorlds } from './harness.js';

// A message that tells the user what to do must name what to fix and a command that works.

const registered = registeredWorlds();

describe('hints that lead somewhere', () => {
  it('a missing LLM key file is named', async () => {
    const w = await registered();
    const keyFile = path.join(w.home, 'llm.key');
    fs.writeFileSync(keyFile, 'sk-test-key-0123456789\n', { mode: 0o600 });
    for (const [name, value] of [
      ['llm.base-url', 'http://127.0.0.1:9/v1'],
      ['llm.model', 'm'],
      ['llm.key-file', keyFile],
      ['analyzer', 'llm'],
    ]) {
      expect((await w.agent(['config', 'set', name!, value!])).code).toBe(0);
    }
    fs.rmSync(keyFile);
    w.sandbox.addThread({ id: 'a', text: BULLISH, project_id: 'c/bitcoin', timestamp: minutesAgo(1) });
    const result = await w.agent(['analyze', 'a']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`cannot read the LLM key file ${keyFile} (ENOENT)`);
  });

  it('a 401 from the service says to register again with --force, which then works', async () => {
    const w = await registered();
    const release = w.sandbox.intercept((_req, res) => {
      res.writeHead(401, { 'content-type': 'application/json' }).end('{"message":"invalid api key"}');
      return true;
    });
    const result = await w.agent(['me']);
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('register again with "agent register --force"');
    release();
    expect((await w.register('e2e-agent-2', ['--force'])).code).toBe(0);
  });
});
