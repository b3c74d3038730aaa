import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runConfigGet, runConfigSet, runConfigUnset } from '../../../src/commands/config/run.js';
import { UsageError } from '../../../src/errors.js';
import { settingsFile } from '../../../src/settings/settings-file.js';
import { offlineContext } from '../../support/context.js';

let root: string;
let dir: string;
beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-config-'));
  dir = path.join(root, 'config');
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

const stored = () => JSON.parse(fs.readFileSync(settingsFile(dir), 'utf8'));

describe('agent config set', () => {
  it.each([
    ['analyzer', 'BUILTIN', 'builtin'],
    ['analyzer.timeout', '2.5', 2.5],
    ['analyzer.fallback', 'builtin', 'builtin'],
    ['llm.base-url', 'http://127.0.0.1:11434/v1/', 'http://127.0.0.1:11434/v1'],
    ['llm.model', ' qwen2.5:7b-instruct ', 'qwen2.5:7b-instruct'],
    ['analyzer.command', `${process.execPath} /x/analyzer.mjs --fast`, `${process.execPath} /x/analyzer.mjs --fast`],
  ])('%s %j is stored as %j, in a 600 file', async (key, value, expected) => {
    const { ctx, stdout } = offlineContext(dir);
    await runConfigSet(ctx, key, value);
    expect(stored()[key]).toEqual(expected);
    expect(fs.statSync(settingsFile(dir)).mode & 0o777).toBe(0o600);
    expect(stdout.text).toBe(`Set ${key} = ${expected} in ${settingsFile(dir)}\n`);
  });

  it.each([
    ['analyzer', 'gpt', /analyzer must be one of/],
    ['analyzer.timeout', '0', /from 0\.1 to 120/],
    ['analyzer.timeout', 'soon', /from 0\.1 to 120/],
    ['analyzer.fallback', 'maybe', /builtin or none/],
    ['llm.base-url', 'ftp://x', /http\(s\)/],
    ['llm.model', '', /model name/],
    ['analyzer.command', '"unterminated', /quote/i],
    ['analyzer.command', '/no/such/program --x', /does not exist/],
    ['llm.api-key', 'sk-live-very-secret', /unknown setting "llm\.api-key"/],
  ])('%s %j is refused and nothing is written', async (key, value, message) => {
    const { ctx } = offlineContext(dir);
    const attempt = runConfigSet(ctx, key, value);
    await expect(attempt).rejects.toThrow(UsageError);
    await expect(runConfigSet(ctx, key, value)).rejects.toThrow(message);
    expect(fs.existsSync(settingsFile(dir))).toBe(false);
  });

  it('an unknown key is refused without echoing the value (it may be a secret)', async () => {
    const { ctx } = offlineContext(dir);
    const error = await runConfigSet(ctx, 'openai.key', 'sk-live-very-secret').catch((e: unknown) => e as UsageError);
    expect(`${(error as UsageError).message} ${(error as UsageError).hint}`).not.toContain('sk-live');
  });

  it.each([
    ['llm.key-file', 'sk-proj-0123456789abcdef'],
    ['llm.key-file', 'sk-proj-AbC/dEf0123456789'],
    ['llm.base-url', 'sk-proj-0123456789abcdef'],
  ])('a key pasted into %s is refused without being echoed', async (key, value) => {
    const { ctx } = offlineContext(dir);
    const error = (await runConfigSet(ctx, key, value).catch((e: unknown) => e)) as UsageError;
    expect(error).toBeInstanceOf(UsageError);
    expect(`${error.message} ${error.hint}`).not.toContain('sk-proj');
  });

  it('a program not executable is refused with a hint to run it through its interpreter', async () => {
    const script = path.join(root, 'mine.mjs');
    fs.writeFileSync(script, 'console.log(1)', { mode: 0o644 });
    const { ctx } = offlineContext(dir);
    await expect(runConfigSet(ctx, 'analyzer.command', script)).rejects.toMatchObject({
      message: `${script} is not executable`,
      hint: expect.stringContaining('interpreter'),
    });
  });

  it('a program other users could change is refused (every cron run executes it)', async () => {
    const script = path.join(root, 'mine.sh');
    fs.writeFileSync(script, '#!/bin/sh\necho {}', { mode: 0o777 });
    fs.chmodSync(script, 0o777);
    const { ctx } = offlineContext(dir);
    await expect(runConfigSet(ctx, 'analyzer.command', script)).rejects.toMatchObject({
      message: expect.stringContaining('has mode 777: other users could change'),
      hint: `run: chmod go-w '${script}'`,
    });
    await expect(runConfigSet(ctx, 'analyzer.command', `${process.execPath} ${script}`)).rejects.toThrow(
      'has mode 777',
    );
    fs.chmodSync(script, 0o755);
    await runConfigSet(ctx, 'analyzer.command', script);
    expect(stored()['analyzer.command']).toBe(script);
  });

  it('a program in a directory others can write to is refused; one in a sticky directory (/tmp) is not', async () => {
    const open = path.join(root, 'open');
    fs.mkdirSync(open);
    fs.chmodSync(open, 0o777);
    const script = path.join(open, 'mine.sh');
    fs.writeFileSync(script, '#!/bin/sh\necho {}', { mode: 0o755 });
    const { ctx } = offlineContext(dir);
    await expect(runConfigSet(ctx, 'analyzer.command', script)).rejects.toThrow(
      `is in ${open}, which others can write to`,
    );
    fs.chmodSync(open, 0o1777);
    await runConfigSet(ctx, 'analyzer.command', script);
  });

  it('a script named by a relative path is checked, with a note that cron runs from home', async () => {
    const script = path.join(root, 'rel.mjs');
    fs.writeFileSync(script, 'console.log(1)', { mode: 0o777 });
    fs.chmodSync(script, 0o777);
    const relative = path.relative(process.cwd(), script);
    const { ctx, stderr } = offlineContext(dir);
    await expect(runConfigSet(ctx, 'analyzer.command', `${process.execPath} ${relative}`)).rejects.toThrow(
      'has mode 777',
    );
    fs.chmodSync(script, 0o644);
    await runConfigSet(ctx, 'analyzer.command', `${process.execPath} ${relative}`);
    expect(stderr.text).toContain(`note: ${relative} is a relative path`);
  });

  it('a bare program name is stored, with a note about cron’s PATH', async () => {
    const { ctx, stderr } = offlineContext(dir);
    await runConfigSet(ctx, 'analyzer.command', 'python3 mine.py');
    expect(stored()['analyzer.command']).toBe('python3 mine.py');
    expect(stderr.text).toContain('cron runs with a minimal PATH');
  });

  it('llm.key-file: "~/" is the home directory even when quoted', async () => {
    fs.writeFileSync(path.join(root, 'key'), 'sk-live-0123456789abcdef\n', { mode: 0o600 });
    const { ctx } = offlineContext(dir, { env: { HOME: root } });
    await runConfigSet(ctx, 'llm.key-file', '~/key');
    expect(stored()['llm.key-file']).toBe(path.join(root, 'key'));
  });

  it('llm.key-file: stored as an absolute path once the file is private; the key is never printed', async () => {
    const keyFile = path.join(root, 'key');
    fs.writeFileSync(keyFile, 'sk-live-0123456789abcdef\n', { mode: 0o600 });
    const { ctx, stdout, stderr } = offlineContext(dir);
    await runConfigSet(ctx, 'llm.key-file', keyFile);
    expect(stored()['llm.key-file']).toBe(keyFile);
    fs.chmodSync(keyFile, 0o640);
    await expect(runConfigSet(ctx, 'llm.key-file', keyFile)).rejects.toThrow(/mode 640/);
    expect(stdout.text + stderr.text).not.toContain('sk-live');
  });

  it('an analyzer is chosen only once what it needs is set: every poll would fail before that', async () => {
    const { ctx } = offlineContext(dir);
    await expect(runConfigSet(ctx, 'analyzer', 'llm')).rejects.toMatchObject({
      exitCode: 2,
      message: expect.stringContaining('llm.base-url and llm.model are not set'),
      hint: 'set them first: agent config set llm.base-url <url>, then agent config set llm.model <name>; then agent config set analyzer llm',
    });
    await runConfigSet(ctx, 'llm.model', 'm');
    await expect(runConfigSet(ctx, 'analyzer', 'llm')).rejects.toThrow('llm.base-url is not set');
    await expect(runConfigSet(ctx, 'analyzer', 'command')).rejects.toThrow('analyzer.command is not set');
    expect(stored()).toEqual({ 'llm.model': 'm' });
  });

  it('a config.json that already names an analyzer without what it needs can still be completed', async () => {
    fs.mkdirSync(dir, { mode: 0o700 });
    fs.writeFileSync(settingsFile(dir), '{"analyzer": "llm"}', { mode: 0o600 });
    const { ctx } = offlineContext(dir);
    await runConfigSet(ctx, 'llm.model', 'm');
    await runConfigSet(ctx, 'llm.base-url', 'http://127.0.0.1:11434/v1');
    expect(stored()).toEqual({ analyzer: 'llm', 'llm.model': 'm', 'llm.base-url': 'http://127.0.0.1:11434/v1' });
  });
});

describe('agent config get / unset', () => {
  beforeEach(async () => {
    const { ctx } = offlineContext(dir);
    await runConfigSet(ctx, 'llm.model', 'qwen2.5:7b');
    await runConfigSet(ctx, 'llm.base-url', 'http://127.0.0.1:11434/v1');
    await runConfigSet(ctx, 'analyzer', 'llm');
  });

  it('one key: the stored value alone on stdout, for scripts', async () => {
    const { ctx, stdout, stderr } = offlineContext(dir);
    await runConfigGet(ctx, 'llm.model');
    expect(stdout.text).toBe('qwen2.5:7b\n');
    expect(stderr.text).toBe('');
  });

  it('an unset key prints nothing on stdout and its default on stderr; an env override is named', async () => {
    const { ctx, stdout, stderr } = offlineContext(dir, { env: { AGENT_ANALYZER_COMMAND: '/bin/true' } });
    await runConfigGet(ctx, 'analyzer.command');
    expect(stdout.text).toBe('');
    expect(stderr.text).toBe(
      'analyzer.command is not set (default: (none))\nAGENT_ANALYZER_COMMAND=/bin/true is set in this environment and overrides it for runs that have it\n',
    );
  });

  it('all keys: a table with defaults and overrides; the key only said to exist', async () => {
    const { ctx, stdout } = offlineContext(dir, {
      env: { AGENT_ANALYZER: 'builtin', AGENT_LLM_API_KEY: 'sk-live-0123456789abcdef' },
    });
    await runConfigGet(ctx, undefined);
    expect(stdout.text).toContain('analyzer           llm  (here AGENT_ANALYZER=builtin overrides it)\n');
    expect(stdout.text).toContain('analyzer.fallback  none  (default)\n');
    expect(stdout.text).toContain('llm key            from AGENT_LLM_API_KEY (never shown)\n');
    expect(stdout.text).not.toContain('sk-live');
  });

  it('--json: the stored settings, the overrides in effect, where the key comes from', async () => {
    const { ctx, stdout } = offlineContext(dir, { json: true, env: { AGENT_LLM_MODEL: 'x' } });
    await runConfigGet(ctx, undefined);
    expect(JSON.parse(stdout.text)).toEqual({
      file: settingsFile(dir),
      settings: { analyzer: 'llm', 'llm.model': 'qwen2.5:7b', 'llm.base-url': 'http://127.0.0.1:11434/v1' },
      overrides: { 'llm.model': 'AGENT_LLM_MODEL' },
      llmKey: 'none',
    });
  });

  it('unset removes the key; unsetting it again says so', async () => {
    const { ctx, stdout } = offlineContext(dir);
    await runConfigUnset(ctx, 'analyzer');
    await runConfigUnset(ctx, 'analyzer');
    expect(stored()).toEqual({ 'llm.model': 'qwen2.5:7b', 'llm.base-url': 'http://127.0.0.1:11434/v1' });
    expect(stdout.text).toBe('Unset analyzer (default: builtin)\nanalyzer was not set\n');
  });

  it('unsetting what the chosen analyzer needs is refused, and nothing changes', async () => {
    const { ctx } = offlineContext(dir);
    await expect(runConfigUnset(ctx, 'llm.model')).rejects.toMatchObject({
      exitCode: 2,
      message: expect.stringContaining('analyzer llm needs llm.model'),
      hint: expect.stringContaining('agent config set analyzer builtin'),
    });
    expect(stored()).toMatchObject({ analyzer: 'llm', 'llm.model': 'qwen2.5:7b' });
  });

  it('a config.json with an invalid value can be repaired with the command its error suggests', async () => {
    fs.writeFileSync(settingsFile(dir), '{"analyzer": "gpt", "llm.model": "m"}', { mode: 0o600 });
    const { ctx } = offlineContext(dir);
    await expect(runConfigGet(ctx, undefined)).rejects.toMatchObject({
      hint: 'fix it: agent config set analyzer <value>, or agent config unset analyzer',
    });
    await runConfigUnset(ctx, 'analyzer');
    expect(stored()).toEqual({ 'llm.model': 'm' });
    fs.writeFileSync(settingsFile(dir), '{"analyzer": "gpt", "analyzer.timeout": 0}', { mode: 0o600 });
    const { ctx: again, stderr } = offlineContext(dir);
    await runConfigSet(again, 'analyzer', 'builtin');
    expect(stored()).toEqual({ analyzer: 'builtin', 'analyzer.timeout': 0 });
    // Stored, but the other bad value still stops every run: said at once.
    expect(stderr.text).toContain('note: the settings file');
    expect(stderr.text).toContain('agent config unset analyzer.timeout');
  });

  it('a config.json that is not a JSON object has to be moved away, and says how', async () => {
    fs.writeFileSync(settingsFile(dir), '{', { mode: 0o600 });
    const { ctx } = offlineContext(dir);
    await expect(runConfigSet(ctx, 'analyzer', 'builtin')).rejects.toMatchObject({
      hint: `move it away to start from the defaults: mv '${settingsFile(dir)}' '${settingsFile(dir)}.bad'`,
    });
    expect(fs.readFileSync(settingsFile(dir), 'utf8')).toBe('{');
  });

  it('an unknown key is a usage error listing the keys', async () => {
    const { ctx } = offlineContext(dir);
    await expect(runConfigGet(ctx, 'analyzer.model')).rejects.toMatchObject({
      hint: expect.stringContaining('analyzer, analyzer.command'),
    });
  });
});
