import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, minutesAgo, registeredWorlds, type World } from './harness.js';

// history and stats as a person sees them at a terminal: coloured unless NO_COLOR (and never with a
// service's own escapes), columns aligned, lines wrapped at words to the terminal's width.

const registered = registeredWorlds();
const SCRIPT = ['/usr/bin/script', '/bin/script'].find((file) => fs.existsSync(file));
const quote = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;
// Our own colours (SGR) and nothing else: what a line looks like once they are taken out.
const SGR = /\u001b\[\d+m/g;

/** Runs agent in a pty of `cols` columns, as a person at a terminal; stdout and stderr as the terminal shows them. */
function atTerminal(w: World, args: string[], cols: number, env: Record<string, string> = {}): Promise<string> {
  const command = [process.execPath, BIN, '--config-dir', w.configDir, ...args].map(quote).join(' ');
  const child = spawn(SCRIPT!, ['-qfec', `stty cols ${cols}; exec ${command}`, '/dev/null'], {
    env: { HOME: w.home, PATH: process.env.PATH ?? '/usr/bin:/bin', TERM: 'xterm', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let printed = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (printed += chunk));
  return new Promise((resolve) => child.on('close', () => resolve(printed.replaceAll('\r\n', '\n'))));
}

const LONG =
  'Spot ETF inflows keep rising while exchange balances keep falling, which historically precedes sustained upward moves.';

function writeHistory(w: World, records: object[]): void {
  fs.writeFileSync(path.join(w.configDir, 'history.jsonl'), `${records.map((r) => JSON.stringify(r)).join('\n')}\n`, {
    mode: 0o600,
  });
}

const summary = (command: string, exitCode: number) => ({
  ts: minutesAgo(30),
  kind: 'run',
  summary: { command, posted: 0, skipped: 0, failed: exitCode ? 1 : 0, exitCode, elapsedMs: 9 },
});

describe('stats and history for a person', () => {
  it('stats counts failed predicts apart from failed polls', async () => {
    const w = await registered();
    writeHistory(w, [
      summary('poll', 0),
      summary('poll', 0),
      summary('poll', 5),
      summary('predict', 2),
      summary('predict', 2),
      summary('predict', 4),
    ]);
    const text = await w.agent(['stats']);
    expect(text.stdout).toContain('3 polls (1 ended with an error), 3 predicts by hand (3 ended with an error)');
    const json = JSON.parse((await w.agent(['stats', '--json'])).stdout);
    expect(json.runs).toEqual({ poll: 3, predict: 3, failed: 4, failedPolls: 1, failedPredicts: 3 });
  });

  it('history pads the cell column, off a terminal too', async () => {
    const w = await registered();
    writeHistory(w, [
      { ts: minutesAgo(3), kind: 'skip', threadId: 't1', cell: 'btc', reason: 'quiet' },
      { ts: minutesAgo(2), kind: 'skip', threadId: 'thread-22', cell: 'ethereum-classic', reason: 'quiet' },
    ]);
    const [newer = '', older = ''] = (await w.agent(['history'])).stdout.trimEnd().split('\n');
    expect(newer.indexOf('ethereum-classic')).toBe(older.indexOf('btc'));
    expect(newer.indexOf('thread-22')).toBe(older.indexOf('t1'));
    expect(newer.indexOf('quiet')).toBe(older.indexOf('quiet'));
  });

  it.skipIf(!SCRIPT)(
    "stats is in colour at a terminal, without NO_COLOR, and never with a service's escapes",
    async () => {
      const w = await registered();
      const hostile = 'evil\u001b]0;pwned\u0007\u001b[2J';
      writeHistory(w, [
        { ts: minutesAgo(40), kind: 'post', threadId: 'p', cell: hostile, conviction: 1, text: LONG },
        { ts: minutesAgo(40), kind: 'skip', threadId: 's', cell: 'bitcoin', reason: `why ${hostile}` },
        {
          ...summary('poll', 0),
          summary: { ...summary('poll', 0).summary, counters: { honey: 1, wax: 2, predictions: 3 } },
        },
      ]);
      const coloured = await atTerminal(w, ['stats'], 100);
      expect(coloured).toMatch(/\u001b\[36m[\u2581-\u2588]+\u001b\[39m/);
      const plain = await atTerminal(w, ['stats'], 100, { NO_COLOR: '1' });
      expect(plain).toContain('posts a day');
      expect(plain).not.toMatch(/\u001b/);
      for (const shown of [coloured, plain, await atTerminal(w, ['history'], 100)]) {
        expect(shown).toContain('evil');
        expect(shown.replace(SGR, '')).not.toMatch(/\u001b/);
      }
    },
  );

  it.skipIf(!SCRIPT)('at 60 columns neither history nor stats cuts a word or passes the edge', async () => {
    const w = await registered();
    writeHistory(w, [
      { ts: minutesAgo(40), kind: 'post', threadId: 'p1', cell: 'bitcoin', conviction: 1.2, text: LONG },
      { ts: minutesAgo(40), kind: 'skip', threadId: 'p2', cell: 'ethereum', reason: LONG },
      {
        ...summary('poll', 0),
        summary: { ...summary('poll', 0).summary, counters: { honey: 10, wax: 20, predictions: 30 } },
      },
    ]);
    // history shows the skip's own reason; stats its kind, in the kind's words (docs/record.md).
    const views: Array<[string[], string[]]> = [
      [['history'], ['historically', 'precedes', 'sustained', 'balances']],
      [['stats'], ['predicts', 'reasons', 'history']],
    ];
    for (const [args, expected] of views) {
      const shown = (await atTerminal(w, args, 60)).replace(SGR, '');
      const lines = shown.trimEnd().split('\n');
      for (const line of lines) expect(Array.from(line).length, `${args}: ${line}`).toBeLessThanOrEqual(60);
      const words = lines.flatMap((line) => line.trim().split(/\s+/));
      for (const word of expected) expect(words, `${args}`).toContain(word);
    }
  });
});
