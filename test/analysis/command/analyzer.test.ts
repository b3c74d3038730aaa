import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createCommandAnalyzer, type CommandAnalyzerOptions } from '../../../src/analysis/command/analyzer.js';
import type { Trace } from '../../../src/analysis/types.js';
import { AnalyzerError, UsageError } from '../../../src/errors.js';
import { failure } from '../../support/failure.js';
import { profile, thread } from '../fixtures.js';
import { fixture, useTempDir } from './support.js';

function analyzer(commandLine: string, options: Partial<CommandAnalyzerOptions> = {}) {
  return createCommandAnalyzer({
    commandLine,
    timeoutMs: 20_000,
    env: { PATH: process.env.PATH },
    secrets: [],
    ...options,
  });
}

/** A clock that says 42 ms passed between the first and the second reading. */
function clock() {
  const readings = [1000, 1042];
  return () => readings.shift() ?? 2000;
}

describe('createCommandAnalyzer: answers', () => {
  it('takes a signal from the last line of stdout, after the chatter', async () => {
    const trace: Trace = [];
    const stderr: string[] = [];
    const command = analyzer(fixture('answer.mjs', '{"strength": 0.6, "evidence": ["ETF inflows"]}'), {
      now: clock(),
      onStderr: (line) => stderr.push(line),
    });
    expect(command.name).toBe('command');
    const output = await command.analyze(thread('Bitcoin ETF inflows surge', { id: 'th_7' }), profile(), trace);
    expect(output).toEqual({ kind: 'signal', strength: 0.6, evidence: [{ phrase: 'ETF inflows', weight: 0.6 }] });
    expect(stderr).toEqual(['answer: read thread th_7']);
    expect(trace).toEqual([
      `command: ran ${process.execPath} (42 ms), answered a signal (strength +0.60, 1 phrase(s) of evidence)`,
    ]);
  });

  it.each([
    [
      'a post',
      '{"action": "post", "conviction": -1.25, "text": "Bearish: unlock ahead."}',
      'a decision (post -1.3)',
      { kind: 'decision', action: 'post', conviction: -1.25, text: 'Bearish: unlock ahead.' },
    ],
    [
      'a skip',
      '{"action": "skip", "reason": "nothing new"}',
      'a decision (skip)',
      { kind: 'decision', action: 'skip', reason: 'nothing new' },
    ],
  ])('takes a decision: %s', async (_name, answer, described, expected) => {
    const trace: Trace = [];
    const output = await analyzer(fixture('answer.mjs', answer)).analyze(thread('x'), profile(), trace);
    expect(output).toEqual(expected);
    expect(trace[0]).toMatch(
      new RegExp(`^command: ran .+ \\(\\d+ ms\\), answered ${described.replace(/[()]/g, '\\$&')}$`),
    );
  });

  it('does not mind a command that never reads its input', async () => {
    // A megabyte of text cannot fit in a pipe: the write fails with EPIPE once the command has exited.
    const big = thread('bitcoin '.repeat(128 * 1024));
    const output = await analyzer(fixture('no-stdin.mjs')).analyze(big, profile(), []);
    expect(output).toEqual({ kind: 'decision', action: 'skip', reason: 'not reading today' });
  });

  it('runs in the given directory', async () => {
    const dir = tempDir();
    const dump = path.join(dir, 'dump.json');
    await analyzer(fixture('dump.mjs', dump), { cwd: dir }).analyze(thread('x'), profile(), []);
    const { cwd } = JSON.parse(readFileSync(dump, 'utf8')) as { cwd: string };
    expect(path.resolve(cwd)).toBe(path.resolve(dir));
  });
});

const tempDir = useTempDir();

describe('createCommandAnalyzer: failures', () => {
  it.each<[string, string, string]>([
    [
      'a sentence',
      fixture('garbage.mjs'),
      'the analyzer command printed a last line that is not JSON: "I think bitcoin goes up, maybe"',
    ],
    ['nothing', fixture('garbage.mjs', ''), 'the analyzer command printed no answer on stdout'],
    [
      'JSON of the wrong shape',
      fixture('garbage.mjs', '{"strength": "high"}'),
      'the analyzer command answered with an invalid signal (strength: ',
    ],
    [
      'a strength that is not finite',
      fixture('garbage.mjs', '{"strength": 1e999, "evidence": []}'),
      'answered with an invalid signal (strength: ',
    ],
    [
      'an unknown action',
      fixture('garbage.mjs', '{"action": "buy"}'),
      'the analyzer command answered with action "buy": it must be "post" or "skip"',
    ],
    ['an array', fixture('garbage.mjs', '[1]'), 'the analyzer command answered with an array, not a signal'],
  ])('refuses %s on stdout', async (_name, line, message) => {
    const trace: Trace = [];
    const error = await failure(analyzer(line).analyze(thread('x'), profile(), trace));
    expect(error).toBeInstanceOf(AnalyzerError);
    expect(error.message).toContain(message);
    expect(trace).toEqual([expect.stringMatching(/^command: ran .+ \(\d+ ms\), no answer$/)]);
  });

  it('refuses a valid answer from a command that exits non-zero, naming the code and its last words', async () => {
    const error = await failure(analyzer(fixture('crash.mjs')).analyze(thread('x'), profile(), []));
    expect(error).toBeInstanceOf(AnalyzerError);
    expect(error.message).toBe('the analyzer command exited with code 3 (stderr: crash: the model file is missing)');
  });

  it('refuses a valid answer from a command killed by a signal', async () => {
    const error = await failure(analyzer(fixture('crash.mjs', 'signal')).analyze(thread('x'), profile(), []));
    expect(error).toBeInstanceOf(AnalyzerError);
    expect(error.message).toBe('the analyzer command was killed by SIGKILL (stderr: crash: starting)');
  });

  it('says when the program does not exist', async () => {
    const error = await failure(analyzer('/nonexistent/dir/analyzer --flag').analyze(thread('x'), profile(), []));
    expect(error).toBeInstanceOf(AnalyzerError);
    expect(error.message).toBe('the analyzer command was not found: /nonexistent/dir/analyzer');
    expect(error.hint).toContain('full path');
  });

  it('says when a bare name is not on PATH', async () => {
    const error = await failure(
      analyzer('no-such-analyzer-here', { env: { PATH: tempDir() } }).analyze(thread('x'), profile(), []),
    );
    expect(error.message).toBe('the analyzer command was not found: no-such-analyzer-here');
  });

  it.skipIf(process.platform === 'win32')('says when the program is not executable', async () => {
    const script = path.join(tempDir(), 'analyzer.sh');
    writeFileSync(script, '#!/bin/sh\necho \'{"strength": 1, "evidence": ["x"]}\'\n');
    chmodSync(script, 0o644);
    const error = await failure(analyzer(script).analyze(thread('x'), profile(), []));
    expect(error).toBeInstanceOf(AnalyzerError);
    // The program is named in at most 80 characters, cut with "…": a temporary dir may be longer.
    const [said, shown = ''] = error.message.split(': ');
    expect(said).toBe('the analyzer command is not executable');
    expect(script.startsWith(shown.replace(/…$/, ''))).toBe(true);
    expect(error.hint).toContain('chmod +x');
  });

  it.each<[string, Partial<CommandAnalyzerOptions>, string]>([
    ['an unterminated quote', { commandLine: "node 'a.mjs" }, 'unterminated single quote'],
    ['an empty command', { commandLine: '  ' }, 'analyzer.command: the command is empty'],
    ['a zero timeout', { timeoutMs: 0 }, 'the analyzer timeout must be a positive number of seconds, not 0'],
    ['a timeout that is not a number', { timeoutMs: Number.NaN }, 'the analyzer timeout must be a positive number'],
    ['a zero output cap', { maxOutputBytes: 0 }, 'the analyzer output cap must be a positive number of bytes'],
  ])('refuses %s before running anything', (_name, options, message) => {
    let error: unknown;
    try {
      analyzer('node a.mjs', options);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toContain(message);
  });
});

describe('createCommandAnalyzer: stderr', () => {
  it('passes each line on, sanitised, one line each, and at most a hundred', async () => {
    const stderr: string[] = [];
    const command = analyzer(fixture('stderr-chatter.mjs', '3'), { onStderr: (line) => stderr.push(line) });
    expect(await command.analyze(thread('x'), profile(), [])).toMatchObject({ kind: 'signal', strength: -0.3 });
    expect(stderr.slice(0, 3)).toEqual(['chatter 1', 'chatter 2', 'chatter 3']);
    expect(stderr[3]).toMatch(/^(long ){50}/);
    expect(Array.from(stderr[3] ?? '')).toHaveLength(300);
    expect(stderr.slice(4)).toEqual(['last words without newline']);

    const many: string[] = [];
    await analyzer(fixture('stderr-chatter.mjs', '150'), { onStderr: (line) => many.push(line) }).analyze(
      thread('x'),
      profile(),
      [],
    );
    expect(many).toHaveLength(101);
    expect(many[99]).toBe('chatter 100');
    expect(many[100]).toBe('… more lines on stderr not shown');
  });

  it('shows no secret it may have found elsewhere, in stderr, errors or answers', async () => {
    const key = 'hive_0123456789abcdefSECRET';
    const stderr: string[] = [];
    const answer = JSON.stringify({ strength: 0.4, evidence: [`my key is ${key}`] });
    const command = analyzer(fixture('answer.mjs', answer), { secrets: [key], onStderr: (line) => stderr.push(line) });
    const output = await command.analyze(thread('x', { id: `id-${key}` }), profile(), []);
    expect(output).toMatchObject({ evidence: [{ phrase: 'my key is [redacted]' }] });
    expect(stderr).toEqual(['answer: read thread id-[redacted]']);

    const garbage = analyzer(fixture('garbage.mjs', `oops ${key}`), { secrets: [key] });
    const error = await failure(garbage.analyze(thread('x'), profile(), []));
    expect(error.message).toContain('oops [redacted]');
    expect(error.message).not.toContain(key);
  });
});
