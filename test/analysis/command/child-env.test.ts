import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createCommandAnalyzer } from '../../../src/analysis/command/analyzer.js';
import { childEnvironment, redact } from '../../../src/analysis/command/child-env.js';
import { profile, thread } from '../fixtures.js';
import { fixture, useTempDir } from './support.js';

const KEY = 'hive_live_9f8e7d6c5b4a3210';
const LLM_KEY = 'sk-or-v1-abcdef0123456789';

describe('childEnvironment', () => {
  it.each<[string, Record<string, string | undefined>, string[], Record<string, string>]>([
    [
      'keeps an ordinary environment',
      { PATH: '/usr/bin', HOME: '/home/u', LANG: 'C.UTF-8' },
      [KEY],
      { PATH: '/usr/bin', HOME: '/home/u', LANG: 'C.UTF-8' },
    ],
    ['removes the LLM key by name', { AGENT_LLM_API_KEY: LLM_KEY, PATH: '/bin' }, [], { PATH: '/bin' }],
    ['removes the LLM key by name in any case', { agent_llm_api_key: LLM_KEY }, [], {}],
    ['removes a variable holding a secret', { HIVE_KEY: KEY, PATH: '/bin' }, [KEY], { PATH: '/bin' }],
    ['removes a variable with a secret inside', { AUTH: `Bearer ${KEY}`, CURL_OPTS: `-H x:${KEY} -s` }, [KEY], {}],
    [
      'keeps other AGENT_ variables',
      { AGENT_ANALYZER: 'command', AGENT_LLM_MODEL: 'llama3' },
      [KEY],
      { AGENT_ANALYZER: 'command', AGENT_LLM_MODEL: 'llama3' },
    ],
    ['ignores an empty secret instead of removing everything', { PATH: '/bin' }, [''], { PATH: '/bin' }],
    ['drops unset variables', { PATH: '/bin', UNSET: undefined }, [], { PATH: '/bin' }],
  ])('%s', (_name, env, secrets, expected) => {
    expect(childEnvironment(env, secrets)).toEqual(expected);
  });

  it('does not change the environment it was given', () => {
    const env = { AGENT_LLM_API_KEY: LLM_KEY, TOKEN: KEY };
    childEnvironment(env, [KEY]);
    expect(env).toEqual({ AGENT_LLM_API_KEY: LLM_KEY, TOKEN: KEY });
  });
});

describe('redact', () => {
  it.each([
    [`key ${KEY} and again ${KEY}`, [KEY], 'key [redacted] and again [redacted]'],
    [`two ${KEY} ${LLM_KEY}`, [KEY, LLM_KEY], 'two [redacted] [redacted]'],
    ['nothing secret', [KEY, ''], 'nothing secret'],
  ])('%s', (text, secrets, expected) => {
    expect(redact(text, secrets)).toBe(expected);
  });
});

describe('what an analyzer command is given', () => {
  const tempDir = useTempDir();

  it('an environment without our keys, exactly its arguments, and exactly the protocol fields', async () => {
    const dump = path.join(tempDir(), 'dump.json');
    const command = createCommandAnalyzer({
      commandLine: `${fixture('dump.mjs', dump)} 'two words' '$HOME' '|' '*'`,
      timeoutMs: 20_000,
      env: { PATH: process.env.PATH, HOME: '/home/someone', AGENT_LLM_API_KEY: LLM_KEY, SERVICE: KEY, NOTE: 'keep me' },
      secrets: [KEY],
    });
    // Extra properties, as a careless caller could leave on the object, must not reach the command.
    const withOutcome = {
      ...thread('ETF inflows', {
        id: 'th_1',
        priceOnFetch: 64000.5,
        citations: [{ url: 'https://n.example/a', title: 'A' }],
      }),
      price_on_eval: 65000,
      priceOnEval: 65000,
    };
    await command.analyze(withOutcome, profile({ directional_bias: 'bullish' }), []);

    const seen = JSON.parse(readFileSync(dump, 'utf8')) as {
      env: Record<string, string>;
      stdin: string;
      argv: string[];
    };
    expect(seen.env).toMatchObject({ PATH: process.env.PATH, HOME: '/home/someone', NOTE: 'keep me' });
    expect(seen.env).not.toHaveProperty('AGENT_LLM_API_KEY');
    expect(seen.env).not.toHaveProperty('SERVICE');
    expect(JSON.stringify(seen.env)).not.toContain(KEY);
    expect(JSON.stringify(seen.env)).not.toContain(LLM_KEY);
    expect(seen.argv).toEqual(['two words', '$HOME', '|', '*']);

    expect(seen.stdin.endsWith('}\n')).toBe(true);
    expect(seen.stdin).not.toContain('eval');
    expect(JSON.parse(seen.stdin)).toStrictEqual({
      version: 1,
      thread: {
        id: 'th_1',
        project_id: 'c/bitcoin',
        text: 'ETF inflows',
        timestamp: '2025-01-01T00:00:00Z',
        price_on_fetch: 64000.5,
        citations: [{ url: 'https://n.example/a', title: 'A' }],
      },
      profile: {
        signal_method: 'technical',
        conviction_style: 'moderate',
        directional_bias: 'bullish',
        participation: 'moderate',
      },
      cell: { name: 'bitcoin', typical_move_pct: 0.9 },
    });
  });
});
