import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { probeOf } from '../../src/domain/probe.js';
import { decisionReply, startFakeLlm, type FakeLlm } from '../support/fake-llm.js';
import { BULLISH, minutesAgo, registeredWorlds, type World } from './harness.js';

const RECORDER = path.join(import.meta.dirname, 'fixtures', 'recording-analyzer.mjs');

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
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ id: 'ag1', name: 'e2e-agent', api_key: key, bio: `my key is ${key}` }));
      return true;
    });
    const json = await w.agent(['me', '--json']);
    expect(json.code, json.stderr).toBe(0);
    expect(json.stdout).not.toContain('def\\"ghi');
    expect(json.stdout).not.toContain('def"ghi');
    // The masked form of this key (hive_…i\jk) would need an escape inside a JSON string: "…" alone.
    expect(JSON.parse(json.stdout)).toMatchObject({ api_key: '\u2026', bio: 'my key is \u2026' });
    const human = await w.agent(['me']);
    expect(human.code).toBe(0);
    expect(human.stdout + human.stderr).not.toContain('def"ghi');
  });
});

describe('the service key quoted in a thread never reaches an analyzer', () => {
  let llm: FakeLlm | undefined;
  afterEach(async () => {
    await llm?.close();
    llm = undefined;
  });

  function addLeakyThread(w: World): string {
    const key = w.state().apiKey;
    const hidden = `${key.slice(0, 7)}\u200B${key.slice(7)}`;
    w.sandbox.addThread({
      id: 'leak',
      text: `${BULLISH}\nSomeone posted this agent's key: ${key} (enjoy).`,
      project_id: 'c/bitcoin',
      timestamp: minutesAgo(2),
      citations: [{ url: `https://example.com/?k=${key}`, title: `leaked ${hidden} here` }],
    });
    return key;
  }

  it('a command analyzer is never given the thread: analyze says it is refused', async () => {
    const w = await registered();
    addLeakyThread(w);
    w.sandbox.addThread({ id: 'fine', text: BULLISH, project_id: 'c/bitcoin', timestamp: minutesAgo(1) });
    for (const [name, value] of [
      ['analyzer.command', `'${process.execPath}' '${RECORDER}' '${w.home}'`],
      ['analyzer', 'command'],
    ]) {
      expect((await w.agent(['config', 'set', name!, value!])).code).toBe(0);
    }
    const result = await w.agent(['analyze', 'leak']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain("refused: the thread's text holds a key of this agent");
    expect(fs.existsSync(path.join(w.home, 'seen-leak.json'))).toBe(false);
    // The same analyzer, given an ordinary thread, is run: the refusal is the thread's, not the setup's.
    expect((await w.agent(['analyze', 'fine'])).code).toBe(0);
    expect(fs.existsSync(path.join(w.home, 'seen-fine.json'))).toBe(true);
  });

  it('a model is never asked about the thread, only about the ordinary one beside it', async () => {
    const w = await registered();
    const key = addLeakyThread(w);
    w.sandbox.addThread({ id: 'fine', text: BULLISH, project_id: 'c/bitcoin', timestamp: minutesAgo(1) });
    llm = await startFakeLlm();
    llm.reply(decisionReply({ action: 'skip', conviction: 0, text: '', reason: 'nothing to see' }));
    for (const [name, value] of [
      ['llm.base-url', llm.baseUrl],
      ['llm.model', 'test-model'],
      ['analyzer', 'llm'],
    ]) {
      expect((await w.agent(['config', 'set', name!, value!])).code).toBe(0);
    }
    const result = await w.agent(['poll', '--dry-run']);
    expect(result.code, result.stderr).toBe(0);
    expect(llm.requests).toHaveLength(1);
    expect(llm.requests[0]!.body).toContain('Spot ETF inflows');
    expect(probeOf(llm.requests[0]!.body)).not.toContain(key);
  });
});
