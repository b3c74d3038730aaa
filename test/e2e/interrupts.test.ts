import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, BULLISH, minutesAgo, registeredWorlds, type World } from './harness.js';

// One rule for Ctrl-C: the run ends as an interrupt (SIGINT: what a shell reports as 130), whatever the
// command was doing, never as a temporary failure (5) or a bug (1).

const HANG = path.join(import.meta.dirname, '..', 'fixtures', 'analyzers', 'hang.mjs');
const registered = registeredWorlds();
const quote = (s: string) => `'${s}'`;

async function slowAnalyzer(w: World): Promise<string> {
  const pidFile = path.join(w.home, 'analyzer.pid');
  for (const [key, value] of Object.entries({
    'analyzer.command': `${quote(process.execPath)} ${quote(HANG)} ${quote(pidFile)}`,
    analyzer: 'command',
    'analyzer.timeout': '60',
  })) {
    expect((await w.agent(['config', 'set', key, value])).code).toBe(0);
  }
  return pidFile;
}

async function until(condition: () => boolean): Promise<void> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > 15_000) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

// `script` gives the agent a terminal (a pty), as a person has: the spinner runs, and Ctrl-C is a SIGINT
// to the agent alone (the analyzer has its own process group). Its exit status is the agent's.
const SCRIPT = ['/usr/bin/script', '/bin/script'].find((file) => fs.existsSync(file));

describe.each([
  ['off a terminal', false],
  ['at a terminal', true],
])('Ctrl-C while a slow analyzer works, %s', (_where, atTerminal) => {
  it.skipIf(atTerminal && !SCRIPT).each([[['analyze', 'a']], [['predict', 'a']], [['poll']]])(
    '%j ends as an interrupt, not as a failure',
    async (args) => {
      const w = await registered();
      const pidFile = await slowAnalyzer(w);
      w.sandbox.addThread({ id: 'a', text: BULLISH, project_id: 'c/bitcoin', timestamp: minutesAgo(2) });
      const command = [process.execPath, BIN, '--config-dir', w.configDir, ...args];
      const env = { HOME: w.home, PATH: process.env.PATH ?? '/usr/bin:/bin', TERM: 'xterm' };
      const child = atTerminal
        ? spawn(SCRIPT!, ['-qfec', `stty cols 80; exec ${command.map(quote).join(' ')}`, '/dev/null'], {
            env,
            stdio: ['pipe', 'pipe', 'pipe'],
          })
        : spawn(command[0]!, command.slice(1), { env, stdio: ['ignore', 'pipe', 'pipe'] });
      let printed = '';
      child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (printed += chunk));
      child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (printed += chunk));
      const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
        child.on('exit', (code, signal) => resolve({ code, signal })),
      );
      await until(() => fs.existsSync(pidFile) && fs.readFileSync(pidFile, 'utf8') !== '');
      // The agent is the analyzer's parent.
      const analyzer = fs.readFileSync(pidFile, 'utf8');
      const agentPid = Number(/^\d+ \(.*?\) \S (\d+)/.exec(fs.readFileSync(`/proc/${analyzer}/stat`, 'utf8'))![1]);
      process.kill(agentPid, 'SIGINT');
      const { code, signal } = await ended;
      expect(signal === 'SIGINT' || code === 130, `exit ${code}, signal ${signal}: ${printed}`).toBe(true);
      expect(printed).not.toMatch(/unexpected/);
      // A poll reports each thread it did not finish (that is its result); a single command just stops.
      if (args[0] !== 'poll') expect(printed).not.toMatch(/shutting down/);
      expect(w.sandbox.comments()).toEqual([]);
    },
  );
});
