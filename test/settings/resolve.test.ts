import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import type { Settings } from '../../src/settings/table.js';
import { resolveAnalyzerConfig, type AnalyzerConfig, type LlmConfig } from '../../src/settings/resolve.js';

const noKeyFile = (file: string): string => {
  throw new Error(`read ${file} unexpectedly`);
};

// Every kind's fields, absent where the kind has none: the assertions read them without narrowing.
type AnyConfig = {
  kind: AnalyzerConfig['kind'];
  timeoutMs: number;
  fallback: string;
  command?: string;
  llm?: LlmConfig['llm'];
};

function resolve(
  settings: Settings,
  override?: string,
  env: Record<string, string> = {},
  readKeyFile = noKeyFile,
): AnyConfig {
  return resolveAnalyzerConfig(settings, override, { env, readKeyFile });
}

const LLM: Settings = { analyzer: 'llm', 'llm.base-url': 'http://127.0.0.1:11434/v1', 'llm.model': 'qwen2.5:7b' };

describe('which analyzer a run uses', () => {
  it.each([
    ['nothing set: the built-in one', {}, undefined, {}, 'builtin'],
    ['config.json', { analyzer: 'command', 'analyzer.command': '/bin/true' }, undefined, {}, 'command'],
    [
      'AGENT_ANALYZER over config.json',
      { analyzer: 'command', 'analyzer.command': '/bin/true' },
      undefined,
      { AGENT_ANALYZER: 'builtin' },
      'builtin',
    ],
    ['--analyzer over AGENT_ANALYZER', {}, 'builtin', { AGENT_ANALYZER: 'llm' }, 'builtin'],
    [
      'an empty AGENT_ANALYZER is no override',
      { analyzer: 'command', 'analyzer.command': '/bin/true' },
      undefined,
      { AGENT_ANALYZER: '' },
      'command',
    ],
    ['case and spaces in the env var', {}, undefined, { AGENT_ANALYZER: ' Builtin ' }, 'builtin'],
  ] as const)('%s', (_name, settings, override, env, kind) => {
    expect(resolve(settings as Settings, override, env as Record<string, string>).kind).toBe(kind);
  });

  it('refuses an unknown analyzer, naming where it came from', () => {
    expect(() => resolve({}, undefined, { AGENT_ANALYZER: 'gpt' })).toThrow(
      /AGENT_ANALYZER must be one of builtin, command, llm/,
    );
    expect(() => resolve({}, 'magic')).toThrow(UsageError);
  });

  it('timeouts: the stored one, else 10 s for a command and 60 s for a model; fallback none unless chosen', () => {
    expect(resolve({ analyzer: 'command', 'analyzer.command': '/bin/true' })).toEqual({
      kind: 'command',
      command: '/bin/true',
      timeoutMs: 10_000,
      fallback: 'none',
    });
    expect(resolve({ ...LLM, 'analyzer.timeout': 2.5, 'analyzer.fallback': 'builtin' })).toMatchObject({
      timeoutMs: 2500,
      fallback: 'builtin',
    });
    expect(resolve(LLM).timeoutMs).toBe(60_000);
  });
});

describe('the command analyzer', () => {
  it('AGENT_ANALYZER_COMMAND overrides the stored command', () => {
    expect(
      resolve({ analyzer: 'command', 'analyzer.command': '/a' }, undefined, { AGENT_ANALYZER_COMMAND: '/b --x' })
        .command,
    ).toBe('/b --x');
  });

  it('without a command it is a usage error that says how to set one', () => {
    expect(() => resolve({ analyzer: 'command' })).toThrow(/no command is set/);
  });
});

describe('the LLM analyzer', () => {
  it('base URL and model from config.json, overridden by env vars; no key for a local server', () => {
    const config = resolve(LLM, undefined, { AGENT_LLM_MODEL: 'llama3.1:8b' });
    expect(config.llm).toEqual({ baseUrl: new URL('http://127.0.0.1:11434/v1'), model: 'llama3.1:8b' });
    expect(resolve(LLM, undefined, { AGENT_LLM_BASE_URL: 'https://api.openai.com/v1/' }).llm?.baseUrl.href).toBe(
      'https://api.openai.com/v1',
    );
  });

  it('the key: AGENT_LLM_API_KEY first, else the key file (read only then)', () => {
    const read: string[] = [];
    const readKeyFile = (file: string) => {
      read.push(file);
      return 'sk-from-file-0123456789';
    };
    const withFile = { ...LLM, 'llm.key-file': '/home/u/.llm-key' };
    expect(resolve(withFile, undefined, { AGENT_LLM_API_KEY: 'sk-from-env-0123456789' }, readKeyFile).llm?.apiKey).toBe(
      'sk-from-env-0123456789',
    );
    expect(read).toEqual([]);
    expect(resolve(withFile, undefined, {}, readKeyFile).llm?.apiKey).toBe('sk-from-file-0123456789');
    expect(read).toEqual(['/home/u/.llm-key']);
  });

  it("the key file's key goes only to the stored server, not to one AGENT_LLM_BASE_URL names for a run", () => {
    const withFile = { ...LLM, 'llm.base-url': 'https://api.openai.com/v1', 'llm.key-file': '/home/u/.llm-key' };
    const readKeyFile = () => 'sk-from-file-0123456789';
    expect(() =>
      resolve(withFile, undefined, { AGENT_LLM_BASE_URL: 'https://elsewhere.example/v1' }, readKeyFile),
    ).toThrow(
      'AGENT_LLM_BASE_URL names https://elsewhere.example, but the key in llm.key-file belongs to https://api.openai.com',
    );
    expect(
      resolve(withFile, undefined, { AGENT_LLM_BASE_URL: 'https://api.openai.com/v2' }, readKeyFile).llm?.apiKey,
    ).toBe('sk-from-file-0123456789');
    expect(
      resolve(
        withFile,
        undefined,
        { AGENT_LLM_BASE_URL: 'https://elsewhere.example/v1', AGENT_LLM_API_KEY: 'sk-own-0123456789' },
        readKeyFile,
      ).llm?.apiKey,
    ).toBe('sk-own-0123456789');
  });

  it('a key is never sent over plain http to another host; a keyless LAN server is fine', () => {
    const lan = { ...LLM, 'llm.base-url': 'http://192.168.1.20:11434/v1' };
    expect(() => resolve(lan, undefined, { AGENT_LLM_API_KEY: 'sk-secret-0123456789' })).toThrow(
      /plain http to 192\.168\.1\.20:11434/,
    );
    expect(resolve(lan).llm?.baseUrl.host).toBe('192.168.1.20:11434');
  });

  it.each([
    ['no base URL', { analyzer: 'llm', 'llm.model': 'm' }, /llm\.base-url is not set/],
    ['no model', { analyzer: 'llm', 'llm.base-url': 'http://127.0.0.1:1/v1' }, /llm\.model is not set/],
    ['credentials in the URL', { ...LLM, 'llm.base-url': 'https://user:pw@api.example/v1' }, /credentials/],
    ['not http', { ...LLM, 'llm.base-url': 'file:///etc/passwd' }, /must be http\(s\)/],
  ] as const)('%s is a usage error', (_name, settings, message) => {
    expect(() => resolve(settings as Settings)).toThrow(message);
  });
});
