import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createCommandAnalyzer, type CommandAnalyzerOptions } from '../../../src/analysis/command/analyzer.js';
import { AnalyzerError } from '../../../src/errors.js';
import { failure } from '../../support/failure.js';
import { profile, thread } from '../fixtures.js';
import { fixture, pidIfWritten, readPid, untilSaid, useTempDir, waitUntilGone } from './support.js';

// No child may outlive analyze(): each fixture writes a pid, and the test waits (generously) for it to
// be gone once analyze() has settled. No duration is checked: a fixture that hangs never answers, so its
// timeout error is the proof. A timeout races the fixture's start-up, so the deterministic checks of the
// kill path go through close(), which stops a process exactly as a timeout does, once the fixture has
// said it is ready.

const tempDir = useTempDir();

function analyzer(commandLine: string, options: Partial<CommandAnalyzerOptions> = {}) {
  return createCommandAnalyzer({
    commandLine,
    timeoutMs: 300,
    killGraceMs: 300,
    env: { PATH: process.env.PATH },
    secrets: [],
    ...options,
  });
}

async function expectGoneIfStarted(pidFile: string): Promise<void> {
  const pid = pidIfWritten(pidFile);
  if (pid !== undefined) expect(await waitUntilGone(pid)).toBe(true);
}

describe('createCommandAnalyzer: processes that do not answer', () => {
  it.each([
    ['hangs', []],
    ['hangs and ignores SIGTERM', ['ignore-term']],
  ])('times out a command that %s, and kills it', async (_name, extra) => {
    const pidFile = path.join(tempDir(), 'pid');
    const command = analyzer(fixture('hang.mjs', pidFile, ...extra));
    const error = await failure(command.analyze(thread('x'), profile(), []));
    expect(error).toBeInstanceOf(AnalyzerError);
    expect(error.message).toBe('the analyzer command timed out after 0.3 s');
    expect(error.hint).toContain('agent config set analyzer.timeout');
    await expectGoneIfStarted(pidFile);
  });

  it('close() ends a running command, with SIGKILL when SIGTERM is ignored', async () => {
    const pidFile = path.join(tempDir(), 'pid');
    const stderr: string[] = [];
    const command = analyzer(fixture('hang.mjs', pidFile, 'ignore-term'), {
      timeoutMs: 60_000,
      onStderr: (line) => stderr.push(line),
    });
    const analysis = failure(command.analyze(thread('x'), profile(), []));
    await untilSaid(stderr, 'hang: ready');
    await command.close?.();
    const error = await analysis;
    expect(error).toBeInstanceOf(AnalyzerError);
    expect(error.message).toBe('the analyzer command was stopped because the agent is shutting down');
    expect(stderr).toContain('hang: SIGTERM ignored');
    expect(await waitUntilGone(await readPid(pidFile))).toBe(true);
  });

  it('stops a command that floods stdout', async () => {
    const pidFile = path.join(tempDir(), 'pid');
    const command = analyzer(fixture('flood.mjs', pidFile), { timeoutMs: 60_000, maxOutputBytes: 256 * 1024 });
    const error = await failure(command.analyze(thread('x'), profile(), []));
    expect(error).toBeInstanceOf(AnalyzerError);
    expect(error.message).toBe('the analyzer command printed more than 256 KiB on stdout and was stopped');
    expect(error.hint).toContain('last line');
    expect(await waitUntilGone(await readPid(pidFile))).toBe(true);
  });

  it('caps stdout at 1 MiB by default', async () => {
    const command = analyzer(fixture('flood.mjs'), { timeoutMs: 60_000 });
    const error = await failure(command.analyze(thread('x'), profile(), []));
    expect(error.message).toBe('the analyzer command printed more than 1 MiB on stdout and was stopped');
  });

  it('close() with nothing running settles at once', async () => {
    await expect(analyzer(fixture('hang.mjs', 'unused')).close?.()).resolves.toBeUndefined();
  });
});

describe.skipIf(process.platform === 'win32')('createCommandAnalyzer: what a command starts', () => {
  it('kills the grandchildren of a command that is stopped', async () => {
    const pidFile = path.join(tempDir(), 'pid');
    const stderr: string[] = [];
    const command = analyzer(fixture('family.mjs', pidFile, 'hang'), {
      timeoutMs: 60_000,
      onStderr: (line) => stderr.push(line),
    });
    const analysis = failure(command.analyze(thread('x'), profile(), []));
    await untilSaid(stderr, 'family: ready');
    await command.close?.();
    expect((await analysis).message).toContain('was stopped');
    expect(await waitUntilGone(await readPid(pidFile))).toBe(true);
  });

  it('kills the grandchildren of a command that times out', async () => {
    const pidFile = path.join(tempDir(), 'pid');
    const error = await failure(
      analyzer(fixture('family.mjs', pidFile, 'hang'), { timeoutMs: 1000 }).analyze(thread('x'), profile(), []),
    );
    expect(error.message).toBe('the analyzer command timed out after 1 s');
    await expectGoneIfStarted(pidFile);
  });

  it('kills what a command left running when it answered and exited', async () => {
    const pidFile = path.join(tempDir(), 'pid');
    const output = await analyzer(fixture('family.mjs', pidFile, 'answer'), { timeoutMs: 20_000 }).analyze(
      thread('x'),
      profile(),
      [],
    );
    expect(output).toMatchObject({ kind: 'signal', strength: 0.5 });
    expect(await waitUntilGone(await readPid(pidFile))).toBe(true);
  });

  it('kills a grandchild that left the process group (setsid) when the command answered and exited', async () => {
    const pidFile = path.join(tempDir(), 'pid');
    const output = await analyzer(fixture('escapee.mjs', pidFile, 'answer'), { timeoutMs: 20_000 }).analyze(
      thread('x'),
      profile(),
      [],
    );
    expect(output).toMatchObject({ kind: 'signal', strength: 0.5 });
    expect(await waitUntilGone(await readPid(pidFile))).toBe(true);
  });

  it('kills a grandchild that left the process group (setsid) when the command is stopped', async () => {
    const pidFile = path.join(tempDir(), 'pid');
    const stderr: string[] = [];
    const command = analyzer(fixture('escapee.mjs', pidFile, 'hang'), {
      timeoutMs: 60_000,
      onStderr: (line) => stderr.push(line),
    });
    const analysis = failure(command.analyze(thread('x'), profile(), []));
    await untilSaid(stderr, 'escapee: ready');
    await command.close?.();
    expect((await analysis).message).toContain('was stopped');
    expect(await waitUntilGone(await readPid(pidFile))).toBe(true);
  });

  it('runs two threads at once, each with its own process', async () => {
    const command = analyzer(fixture('answer.mjs', '{"strength": 0.2, "evidence": ["twice"]}'), { timeoutMs: 20_000 });
    const outputs = await Promise.all([
      command.analyze(thread('a'), profile(), []),
      command.analyze(thread('b'), profile(), []),
    ]);
    expect(outputs.map((o) => o.kind)).toEqual(['signal', 'signal']);
  });
});
