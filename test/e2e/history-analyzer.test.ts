import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BEARISH, BULLISH, minutesAgo, registeredWorlds, type World } from './harness.js';

// Each post and skip in the history says which analyzer decided it (docs/cli.md, history --json), and
// that the fallback did when the configured one failed.

const registered = registeredWorlds();
const QUIET = 'A calm day on the chain: nothing moved, nobody said much, volumes flat across the board.';
const FIXTURES = path.join(import.meta.dirname, '..', 'fixtures', 'analyzers');
const quote = (s: string) => `'${s}'`;

type Entry = { kind: string; threadId?: string; analyzer?: string; fallback?: boolean };

async function entries(w: World): Promise<Entry[]> {
  const result = await w.agent(['history', '--json']);
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout).entries;
}

async function configure(w: World, settings: Record<string, string>): Promise<void> {
  for (const [key, value] of Object.entries(settings))
    expect((await w.agent(['config', 'set', key, value])).code).toBe(0);
}

describe('which analyzer decided, in the history', () => {
  it('the built-in one, on a post and a skip; nothing for a size given by hand', async () => {
    const w = await registered();
    w.sandbox.addThread({ id: 'up', text: BULLISH, project_id: 'c/bitcoin', timestamp: minutesAgo(3) });
    w.sandbox.addThread({ id: 'calm', text: QUIET, project_id: 'c/ethereum', timestamp: minutesAgo(2) });
    expect((await w.agent(['poll'])).code).toBe(0);
    w.sandbox.addThread({ id: 'hand', text: BEARISH, project_id: 'c/solana', timestamp: minutesAgo(1) });
    expect((await w.agent(['predict', 'hand', '--conviction', '-1'])).code).toBe(0);
    const shown = await entries(w);
    expect(shown.find((e) => e.threadId === 'up')).toMatchObject({ kind: 'post', analyzer: 'builtin' });
    expect(shown.find((e) => e.threadId === 'calm')).toMatchObject({ kind: 'skip', analyzer: 'builtin' });
    for (const e of shown.filter((e) => e.threadId === 'up' || e.threadId === 'calm'))
      expect(e.fallback).toBeUndefined();
    const hand = shown.find((e) => e.threadId === 'hand');
    expect(hand).toMatchObject({ kind: 'post' });
    expect(hand?.analyzer).toBeUndefined();
  });

  it('a command that answers; then one that fails, with the built-in fallback deciding', async () => {
    const w = await registered();
    const answer = JSON.stringify({
      action: 'post',
      conviction: 1.1,
      text: 'Whales keep buying and the chart agrees.',
    });
    await configure(w, {
      'analyzer.command': `${quote(process.execPath)} ${quote(path.join(FIXTURES, 'answer.mjs'))} ${quote(answer)}`,
      analyzer: 'command',
    });
    w.sandbox.addThread({ id: 'by-command', text: BULLISH, project_id: 'c/bitcoin', timestamp: minutesAgo(3) });
    expect((await w.agent(['poll'])).code).toBe(0);
    await configure(w, {
      'analyzer.command': `${quote(process.execPath)} ${quote(path.join(FIXTURES, 'crash.mjs'))}`,
      'analyzer.fallback': 'builtin',
    });
    w.sandbox.addThread({ id: 'by-fallback', text: BULLISH, project_id: 'c/solana', timestamp: minutesAgo(2) });
    expect((await w.agent(['poll'])).code).toBe(0);
    const shown = await entries(w);
    expect(shown.find((e) => e.threadId === 'by-command')).toMatchObject({ kind: 'post', analyzer: 'command' });
    expect(shown.find((e) => e.threadId === 'by-command')?.fallback).toBeUndefined();
    expect(shown.find((e) => e.threadId === 'by-fallback')).toMatchObject({
      kind: 'post',
      analyzer: 'builtin',
      fallback: true,
    });
  });
});
