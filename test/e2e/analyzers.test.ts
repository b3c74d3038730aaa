import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { decisionReply, startFakeLlm, type FakeLlm } from '../support/fake-llm.js';
import { BEARISH, BIN, BULLISH, minutesAgo, registeredWorlds, type World } from './harness.js';

// The analyzer choice end to end, as cron runs it: config.json switches the cron agent to the user's own
// command, whose failures leave threads due unless the built-in fallback was chosen.

const HANG = path.join(import.meta.dirname, '..', 'fixtures', 'analyzers', 'hang.mjs');
const RECORDER = path.join(import.meta.dirname, 'fixtures', 'recording-analyzer.mjs');
const EXAMPLE = path.join(import.meta.dirname, '..', '..', 'examples', 'momentum-analyzer.mjs');

const registered = registeredWorlds();

const at = minutesAgo;
const quote = (s: string) => `'${s}'`;

async function useCommand(w: World, command: string, extra: Record<string, string> = {}) {
  for (const [key, value] of Object.entries({ 'analyzer.command': command, analyzer: 'command', ...extra })) {
    const set = await w.agent(['config', 'set', key, value]);
    expect(set, set.stderr).toMatchObject({ code: 0 });
  }
}

describe('a command analyzer in the cron agent', () => {
  it('one setting switches poll to the command; it sees the protocol input and never the service key', async () => {
    const w = await registered();
    await useCommand(w, `${quote(process.execPath)} ${quote(RECORDER)} ${quote(w.home)}`);
    w.sandbox.addThread({ id: 'a', text: BULLISH, project_id: 'c/bitcoin', timestamp: at(2) });
    w.sandbox.addThread({ id: 'b', text: BEARISH, project_id: 'c/ethereum', timestamp: at(1) });

    const dry = await w.agent(['poll', '--dry-run', '-v']);
    // Threads are read side by side: each line of the command's stderr names its thread.
    expect(dry.stderr).toContain('  a: analyzer stderr: recording-analyzer: read a\n');
    expect(dry.stderr).toContain('  b: analyzer stderr: recording-analyzer: read b\n');

    const poll = await w.agent(['poll']);
    expect(poll).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(
      w.sandbox
        .comments()
        .map((c) => [c.thread_id, c.conviction])
        .sort(),
    ).toEqual([
      ['a', -0.4],
      ['b', -0.4],
    ]);
    const seen = JSON.parse(fs.readFileSync(path.join(w.home, 'seen-a.json'), 'utf8'));
    expect(Object.keys(seen.input).sort()).toEqual(['cell', 'profile', 'thread', 'version']);
    expect(seen.input.cell).toEqual({ name: 'bitcoin', typical_move_pct: 0.9 });
    expect(JSON.stringify(seen.env)).not.toContain(w.state().apiKey);
    expect(fs.readFileSync(path.join(w.configDir, 'config.json'), 'utf8')).not.toContain(w.state().apiKey);
  });

  it('a failing command posts nothing and leaves the thread due (exit 5); with fallback builtin the built-in decides', async () => {
    const w = await registered();
    await useCommand(w, `${quote(process.execPath)} ${quote(RECORDER)} ${quote(w.home)} crash`);
    w.sandbox.addThread({ id: 'a', text: BULLISH, project_id: 'c/bitcoin', timestamp: at(2) });

    const failed = await w.agent(['poll']);
    expect(failed.code).toBe(5);
    expect(failed.stderr).toMatch(/a: analysis failed: the analyzer command exited with (status|code) 3/);
    // A script's stderr may hold its own secrets: under cron it is shown only with --verbose.
    expect(failed.stderr).not.toContain('out of ideas');
    expect(w.sandbox.comments()).toEqual([]);
    expect(w.state().journal).toMatchObject({ a: { status: 'failed', tries: 1 } });

    expect((await w.agent(['config', 'set', 'analyzer.fallback', 'builtin'])).code).toBe(0);
    const dry = await w.agent(['poll', '--dry-run', '-v']);
    expect(dry.stderr).toContain('fallback: the command analyzer failed');
    const fallback = await w.agent(['poll']);
    expect(fallback).toMatchObject({ code: 0, stdout: '' });
    // Under cron the run succeeds, and says once that the user's analyzer is not the one deciding.
    expect(fallback.stderr).toBe(
      'agent: the command analyzer failed on 1 thread(s), so the built-in analyzer decided (first: the analyzer command exited with code 3 (its stderr is shown with --verbose))\n',
    );
    expect(w.sandbox.comments().map((c) => c.thread_id)).toEqual(['a']);
    expect(w.sandbox.comments()[0]!.conviction).toBeGreaterThan(0);
  });

  it('AGENT_ANALYZER overrides config.json for one run', async () => {
    const w = await registered();
    await useCommand(w, `${quote(process.execPath)} ${quote(RECORDER)} ${quote(w.home)} crash`);
    w.sandbox.addThread({ id: 'a', text: BULLISH, project_id: 'c/bitcoin', timestamp: at(2) });
    const result = await w.agent(['poll', '--json'], { env: { AGENT_ANALYZER: 'builtin' } });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).posted).toHaveLength(1);
    expect(fs.existsSync(path.join(w.home, 'seen-a.json'))).toBe(false);
  });
});

describe('stopping the agent', () => {
  it('Ctrl-C (SIGINT, even twice) while a command analyzer runs stops the command too, then ends the agent as the signal does', async () => {
    const w = await registered();
    const pidFile = path.join(w.home, 'analyzer.pid');
    await useCommand(w, `${quote(process.execPath)} ${quote(HANG)} ${quote(pidFile)} ignore-term`, {
      'analyzer.timeout': '60',
    });
    w.sandbox.addThread({ id: 'a', text: BULLISH, project_id: 'c/bitcoin', timestamp: at(2) });
    const agent = spawn(process.execPath, [BIN, '--config-dir', w.configDir, 'analyze', 'a'], {
      env: { HOME: w.home, PATH: process.env.PATH ?? '/usr/bin:/bin' },
      stdio: 'ignore',
    });
    const ended = new Promise<NodeJS.Signals | null>((resolve) => agent.on('exit', (_code, signal) => resolve(signal)));
    await until(() => fs.existsSync(pidFile) && fs.readFileSync(pidFile, 'utf8') !== '');
    const pid = Number(fs.readFileSync(pidFile, 'utf8'));
    agent.kill('SIGINT');
    // A second Ctrl-C while the command (which ignores SIGTERM) is being stopped changes nothing.
    await new Promise((resolve) => setTimeout(resolve, 150));
    agent.kill('SIGINT');
    expect(await ended).toBe('SIGINT');
    await until(() => !alive(pid));
  });
});

async function until(condition: () => boolean, limitMs = 15_000): Promise<void> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > limitMs) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  // A zombie (exited, not yet reaped: pid 1 here does not reap) counts as gone.
  try {
    return !/^\S+ \(.*\) Z/.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

describe('agent analyze', () => {
  it('prints the trace and the decision; --json is the predict --dry-run shape plus the trace; nothing is posted', async () => {
    const w = await registered();
    w.sandbox.addThread({ id: 'a', text: BULLISH, project_id: 'c/bitcoin', timestamp: at(2) });
    const human = await w.agent(['analyze', 'a']);
    expect(human.code).toBe(0);
    expect(human.stdout.split('\n')[0]).toMatch(
      /^Thread a \(c\/bitcoin\), \d{4}-\d\d-\d\dT[\d:.]+Z, price [\d.]+: Spot ETF inflows hit \$500M/,
    );
    expect(human.stdout).toContain('  analyzer: builtin\n');
    expect(human.stdout).toMatch(/\n {2}policy: post \+\d\.\d: /);
    expect(human.stdout).toMatch(/Would post \+\d\.\d% on a \(c\/bitcoin\): Bullish on c\/bitcoin: .*\n$/);

    const json = JSON.parse((await w.agent(['analyze', 'a', '--json'])).stdout);
    expect(json).toEqual({
      threadId: 'a',
      action: 'post',
      conviction: expect.any(Number),
      text: expect.any(String),
      trace: expect.arrayContaining(['analyzer: builtin']),
    });
    expect(w.sandbox.comments()).toEqual([]);
    expect(w.state().journal ?? {}).toEqual({});
  });

  it('--analyzer picks another analyzer for this run only', async () => {
    const w = await registered();
    await useCommand(w, `${quote(process.execPath)} ${quote(RECORDER)} ${quote(w.home)}`);
    w.sandbox.addThread({ id: 'a', text: BULLISH, project_id: 'c/bitcoin', timestamp: at(2) });
    const own = JSON.parse((await w.agent(['analyze', 'a', '--json'])).stdout);
    const builtin = JSON.parse((await w.agent(['analyze', 'a', '--json', '--analyzer', 'builtin'])).stdout);
    expect(own).toMatchObject({ action: 'post', conviction: -0.4 });
    expect(builtin.conviction).toBeGreaterThan(0);
  });

  it('--stdin speaks the protocol: as a command analyzer it decides exactly as the built-in one (round trip)', async () => {
    const w = await registered();
    const texts = [
      BULLISH,
      BEARISH,
      'Quiet weekend, nothing to report.',
      'Not bullish: ETF outflows continue while funding flips negative.',
    ];
    texts.forEach((text, i) => {
      w.sandbox.addThread({
        id: `t${i}`,
        text,
        project_id: ['c/bitcoin', 'c/solana', 'c/pepe', 'c/ethereum'][i],
        timestamp: at(10 - i),
      });
    });
    const builtin = await w.agent(['poll', '--dry-run', '--json']);
    await useCommand(w, `${quote(process.execPath)} ${quote(BIN)} analyze --stdin`);
    const viaCommand = await w.agent(['poll', '--dry-run', '--json', '-v']);
    expect(viaCommand.code).toBe(0);
    expect(viaCommand.stderr.match(/t\d: command: ran /g)).toHaveLength(4);
    // The same decisions; a skip's kind says who chose it, and here the command did.
    const viaKinds = JSON.parse(viaCommand.stdout);
    expect(viaKinds.skipped.map((s: { skipKind: string }) => s.skipKind)).toEqual(
      viaKinds.skipped.map(() => 'analyzer-skip'),
    );
    const withoutKinds = (doc: { skipped: Array<{ skipKind?: string }> }) => ({
      ...doc,
      skipped: doc.skipped.map(({ skipKind: _, ...rest }) => rest),
    });
    expect(withoutKinds(viaKinds)).toEqual(withoutKinds(JSON.parse(builtin.stdout)));
    expect(JSON.parse(builtin.stdout).posted.length).toBeGreaterThanOrEqual(2);
  });

  it('--stdin refuses input that is not a protocol object (exit 2), printing nothing on stdout', async () => {
    const w = await registered();
    const result = await w.agent(['analyze', '--stdin'], { input: '{"thread": {"id": 1}}' });
    expect(result).toMatchObject({ code: 2, stdout: '' });
    expect(result.stderr).toMatch(/standard input is not a protocol object/);
  });
});

describe('the example analyzer', () => {
  it('runs as the cron agent’s analyzer and posts only valid predictions', async () => {
    const w = await registered();
    await useCommand(w, `${quote(process.execPath)} ${quote(EXAMPLE)}`);
    w.sandbox.addThread({ id: 'a', text: BULLISH, project_id: 'c/bitcoin', timestamp: at(2) });
    w.sandbox.addThread({ id: 'b', text: BEARISH, project_id: 'c/ethereum', timestamp: at(1) });
    const result = await w.agent(['poll', '--json']);
    expect(result.code, result.stderr).toBe(0);
    const doc = JSON.parse(result.stdout);
    expect(doc.failed).toEqual([]);
    expect(doc.posted.length + doc.skipped.length).toBe(2);
  });
});

describe('an LLM analyzer in the cron agent', () => {
  let llm: FakeLlm | undefined;
  afterEach(async () => {
    await llm?.close();
    llm = undefined;
  });

  it('poll asks the model (its HTTP client loaded beside the bundle), sends the key to it only, and the policy clamps its size', async () => {
    const w = await registered();
    llm = await startFakeLlm();
    llm.reply(
      decisionReply({
        action: 'post',
        conviction: 12,
        text: 'Bullish on c/bitcoin: ETF inflows at a record. Expect +12% in 3h.',
        reason: '',
      }),
    );
    for (const [key, value] of [
      ['llm.base-url', llm.baseUrl],
      ['llm.model', 'test-model'],
      ['analyzer', 'llm'],
    ]) {
      expect((await w.agent(['config', 'set', key!, value!])).code).toBe(0);
    }
    w.sandbox.addThread({ id: 'a', text: BULLISH, project_id: 'c/bitcoin', timestamp: at(2) });
    const LLM_KEY = 'sk-e2e-llm-key-0123456789';
    const result = await w.agent(['poll', '--json'], { env: { AGENT_LLM_API_KEY: LLM_KEY } });
    expect(result.code, result.stderr).toBe(0);
    // moderate style on bitcoin: at most 1.5σ × 0.9% = 1.3%; the "+12%" in the text is not posted either
    expect(JSON.parse(result.stdout).posted).toEqual([
      {
        threadId: 'a',
        conviction: 1.3,
        text: 'Bullish on c/bitcoin: ETF inflows at a record. Expect +1.3% in 3h.',
        predictionId: expect.any(String),
      },
    ]);
    expect(llm.requests).toHaveLength(1);
    expect(llm.requests[0]!.headers.authorization).toBe(`Bearer ${LLM_KEY}`);
    expect(llm.requests[0]!.body).not.toContain(w.state().apiKey);
    expect(w.sandbox.requests.some((r) => JSON.stringify(r).includes(LLM_KEY))).toBe(false);
    expect(result.stdout + result.stderr).not.toContain(LLM_KEY);
  });

  it('a key the model echoes into its text never reaches a post', async () => {
    const w = await registered();
    llm = await startFakeLlm();
    const LLM_KEY = 'sk-e2e-llm-key-0123456789';
    // The model's key split by a zero-width space, which the cleaning before a post would remove.
    const hidden = `${LLM_KEY.slice(0, 6)}\u200B${LLM_KEY.slice(6)}`;
    llm.reply(
      decisionReply({
        action: 'post',
        conviction: 1,
        text: `ETF inflows at a record; my key is ${hidden}, service ${w.state().apiKey}.`,
        reason: '',
      }),
    );
    for (const [key, value] of [
      ['llm.base-url', llm.baseUrl],
      ['llm.model', 'test-model'],
      ['analyzer', 'llm'],
    ]) {
      expect((await w.agent(['config', 'set', key!, value!])).code).toBe(0);
    }
    w.sandbox.addThread({ id: 'a', text: BULLISH, project_id: 'c/bitcoin', timestamp: at(2) });
    const result = await w.agent(['poll'], { env: { AGENT_LLM_API_KEY: LLM_KEY } });
    expect(result).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(w.sandbox.comments().map((c) => c.text)).toEqual([
      'Bullish on c/bitcoin: ETF inflows at a record, [redacted] [redacted]. Expect +1.0% in 3h.',
    ]);
  });
});
