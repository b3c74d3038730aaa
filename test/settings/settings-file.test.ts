import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StateError, UsageError } from '../../src/errors.js';
import { readKeyFile } from '../../src/settings/key-file.js';
import { readSettings, settingsFile, writeSettings } from '../../src/settings/settings-file.js';

let root: string;
let dir: string;
beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-settings-'));
  dir = path.join(root, 'config');
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

const mode = (file: string) => fs.statSync(file).mode & 0o777;

describe('config.json', () => {
  it('no file: no settings, and nothing is created by reading', () => {
    expect(readSettings(dir)).toEqual({});
    expect(fs.existsSync(dir)).toBe(false);
  });

  it('written atomically with modes 700/600, read back, unknown keys kept', () => {
    fs.mkdirSync(dir, { mode: 0o700 });
    fs.writeFileSync(settingsFile(dir), JSON.stringify({ analyzer: 'command', 'future.key': 1 }), { mode: 0o600 });
    writeSettings(dir, { ...readSettings(dir), 'analyzer.timeout': 3 });
    expect(readSettings(dir)).toEqual({ analyzer: 'command', 'future.key': 1, 'analyzer.timeout': 3 });
    expect(mode(settingsFile(dir))).toBe(0o600);
    expect(fs.readdirSync(dir)).toEqual(['config.json']);
  });

  it('creates the config dir with mode 700', () => {
    writeSettings(dir, { analyzer: 'builtin' });
    expect(mode(dir)).toBe(0o700);
  });

  it.each([
    ['not JSON', '{', /is not a JSON object/],
    ['an unknown analyzer', '{"analyzer":"gpt"}', /not valid \(analyzer/],
    ['a timeout out of range', '{"analyzer.timeout":0}', /not valid \(analyzer\.timeout/],
    ['not an object', '[]', /is not a JSON object/],
  ])('%s is refused with the path, never silently reset', (_name, content, message) => {
    fs.mkdirSync(dir, { mode: 0o700 });
    fs.writeFileSync(settingsFile(dir), content, { mode: 0o600 });
    expect(() => readSettings(dir)).toThrow(message);
    expect(fs.readFileSync(settingsFile(dir), 'utf8')).toBe(content);
  });

  it('a settings file others could change is refused: it names a command every run executes', () => {
    fs.mkdirSync(dir, { mode: 0o700 });
    fs.writeFileSync(settingsFile(dir), '{"analyzer":"command","analyzer.command":"/bin/true"}', { mode: 0o600 });
    fs.chmodSync(settingsFile(dir), 0o620);
    expect(() => readSettings(dir)).toThrow(StateError);
    expect(() => readSettings(dir)).toThrow(/mode 620: other users could change which command every run executes/);
  });
});

describe('the LLM key file', () => {
  const write = (content: string, fileMode = 0o600) => {
    fs.mkdirSync(root, { recursive: true });
    const file = path.join(root, 'llm-key');
    fs.writeFileSync(file, content, { mode: fileMode });
    fs.chmodSync(file, fileMode);
    return file;
  };

  it('the key alone, trailing newline dropped', () => {
    expect(readKeyFile(write('sk-abc0123456789\n'))).toBe('sk-abc0123456789');
  });

  it('refused when others can read it, with the chmod that fixes it', () => {
    const file = write('sk-abc0123456789\n', 0o644);
    expect(() => readKeyFile(file)).toThrow(/mode 644: other users could read the LLM key/);
    try {
      readKeyFile(file);
    } catch (error) {
      expect((error as StateError).hint).toBe(`run: chmod 600 '${file}'`);
    }
  });

  it.each([
    ['empty', ''],
    ['two lines', 'sk-one\nsk-two\n'],
  ])('%s is refused', (_name, content) => {
    expect(() => readKeyFile(write(content))).toThrow(/must hold the key alone/);
  });

  it('a missing file is a usage error naming it, without its content', () => {
    expect(() => readKeyFile(path.join(root, 'nope'))).toThrow(UsageError);
  });
});
