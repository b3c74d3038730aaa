import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BULLISH, minutesAgo, registeredWorlds, runAgent } from './harness.js';
import { runPrinted } from './printed-command.js';

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
    // The run was given --config-dir: the command pasted acts on that dir, not the default one.
    expect(result.stderr).toContain(`register again with "agent --config-dir ${w.configDir} register --force"`);
    release();
    expect((await w.register('e2e-agent-2', ['--force'])).code).toBe(0);
  });
});

describe('the hints of config name this agent, as printed', () => {
  it('"Next" after config set, and the example of a key file, name the config dir; pasted, they set it there', async () => {
    const w = await registered();
    // A config dir of its own, a path a shell must quote; the default one (under HOME) holds no agent.
    const dir = path.join(w.home, 'my agents', 'second');
    fs.mkdirSync(path.dirname(dir), { recursive: true });
    fs.cpSync(w.configDir, dir, { recursive: true });
    fs.chmodSync(dir, 0o700);
    const config = (...args: string[]) => runAgent(['--config-dir', dir, 'config', ...args], w.home);

    // The switch is refused until what the analyzer needs is set; the hint gives the commands, in order.
    const firstSteps = (stderr: string) =>
      /\(set (?:it|them) first: (.*)\)$/m.exec(stderr)?.[1]?.split(/, then |; then /);
    const llm = await config('set', 'analyzer', 'llm');
    expect(llm.code).toBe(2);
    const next = firstSteps(llm.stderr)!;
    expect(next).toEqual([
      `agent --config-dir '${dir}' config set llm.base-url <url>`,
      `agent --config-dir '${dir}' config set llm.model <name>`,
      `agent --config-dir '${dir}' config set analyzer llm`,
    ]);
    const pasted = await runPrinted(next[0]!.replace('<url>', 'http://127.0.0.1:9/v1'), { HOME: w.home });
    expect(pasted.code).toBe(0);
    expect(JSON.parse(fs.readFileSync(path.join(dir, 'config.json'), 'utf8'))).toMatchObject({
      'llm.base-url': 'http://127.0.0.1:9/v1',
    });

    expect(firstSteps((await config('set', 'analyzer', 'command')).stderr)).toEqual([
      `agent --config-dir '${dir}' config set analyzer.command "<your command>"`,
      `agent --config-dir '${dir}' config set analyzer command`,
    ]);
    const pastedKey = await config('set', 'llm.key-file', 'sk-not-a-path');
    expect(pastedKey.code).toBe(2);
    expect(pastedKey.stderr).toContain(`e.g. agent --config-dir '${dir}' config set llm.key-file ~/`);
  });
});
