import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BULLISH, minutesAgo, registeredWorlds, type World } from './harness.js';

// key-never-shown, for the history: a service that echoes the key as a thread id or a cell must not get
// it written to history.jsonl, and a file written before (by an older version) is masked when printed.

const registered = registeredWorlds();

/** The key, and its lower-cased form (a cell name is lower-cased), or a long piece of either. */
function expectNoKey(text: string, key: string, where: string): void {
  for (const form of [key, key.toLowerCase(), key.toUpperCase()]) {
    expect(text, where).not.toContain(form.slice(5, 20));
  }
}

async function printed(w: World): Promise<string> {
  let all = '';
  for (const args of [['history'], ['history', '--json'], ['stats'], ['stats', '--json']]) {
    const result = await w.agent(args);
    expect(result.code, `${args.join(' ')}: ${result.stderr}`).toBe(0);
    all += result.stdout + result.stderr;
  }
  return all;
}

describe('the key in the history', () => {
  it('a key a service echoes as a thread id or a cell is masked in history.jsonl and in history and stats', async () => {
    const w = await registered();
    const key = w.state().apiKey;
    w.sandbox.addThread({ id: key, text: BULLISH, project_id: 'c/bitcoin', timestamp: minutesAgo(3) });
    w.sandbox.addThread({ id: 'cell-is-key', text: BULLISH, project_id: `c/${key}`, timestamp: minutesAgo(2) });
    await w.agent(['poll']);
    const file = fs.readFileSync(path.join(w.configDir, 'history.jsonl'), 'utf8');
    expect(file).toContain('"kind":"run"');
    expectNoKey(file, key, 'history.jsonl');
    expectNoKey(await printed(w), key, 'history and stats');
  });

  it('a history written before, with the key in each field, is printed masked', async () => {
    const w = await registered();
    const key = w.state().apiKey;
    // The key of the agent registered here before a `register --force`, kept in its backup.
    const before = `hive_${'Old0Key1'.repeat(5)}`;
    fs.writeFileSync(path.join(w.configDir, 'state.20261101T000000000Z.bak.json'), JSON.stringify({ apiKey: before }), {
      mode: 0o600,
    });
    const ts = minutesAgo(5);
    const old = [
      { ts, kind: 'skip', threadId: before, reason: 'from the agent before' },
      { ts, kind: 'post', threadId: key, cell: key.toLowerCase(), conviction: 1.2, text: `up ${key}` },
      { ts, kind: 'skip', threadId: key.toUpperCase(), cell: key, reason: `no ${key.toLowerCase()}` },
      { ts, kind: 'fail', threadId: 't', cell: key, reason: `boom ${key}` },
      {
        ts,
        kind: 'run',
        summary: { command: 'poll', posted: 1, skipped: 1, failed: 1, exitCode: 5, elapsedMs: 9, error: key },
      },
    ];
    fs.writeFileSync(path.join(w.configDir, 'history.jsonl'), `${old.map((r) => JSON.stringify(r)).join('\n')}\n`, {
      mode: 0o600,
    });
    w.planted(path.join(w.configDir, 'history.jsonl'));
    const all = await printed(w);
    expect(all).toContain('…');
    expectNoKey(all, key, 'history and stats');
    expectNoKey(all, before, 'history and stats');
  });
});
