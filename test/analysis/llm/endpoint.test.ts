import { describe, expect, it } from 'vitest';
import { chatEndpoint } from '../../../src/analysis/llm/endpoint.js';
import { UsageError } from '../../../src/errors.js';

describe('chatEndpoint', () => {
  it.each([
    ['http://127.0.0.1:11434/v1', true, 'http://127.0.0.1:11434/v1/chat/completions'],
    ['http://localhost:8080/v1/', false, 'http://localhost:8080/v1/chat/completions'],
    ['https://api.openai.com/v1', true, 'https://api.openai.com/v1/chat/completions'],
    ['https://openrouter.ai/api/v1', true, 'https://openrouter.ai/api/v1/chat/completions'],
    [' https://llm.example/v1/chat/completions ', true, 'https://llm.example/v1/chat/completions'],
    ['http://[::1]:8000', false, 'http://[::1]:8000/chat/completions'],
    ['http://192.168.1.20:11434/v1', false, 'http://192.168.1.20:11434/v1/chat/completions'],
  ])('%s', (raw, hasKey, url) => {
    expect(chatEndpoint(raw, hasKey).url.href).toBe(url);
  });

  it('names the origin only, and knows a loopback server', () => {
    expect(chatEndpoint('https://openrouter.ai/api/v1', true)).toMatchObject({
      origin: 'https://openrouter.ai',
      loopback: false,
    });
    expect(chatEndpoint('http://localhost:11434/v1', false)).toMatchObject({
      origin: 'http://localhost:11434',
      loopback: true,
    });
  });

  it.each([
    ['not a url', false, /not a URL/],
    ['ftp://llm.example/v1', false, /must be http\(s\)/],
    ['https://user:pass@llm.example/v1', false, /must not contain credentials/],
    ['https://llm.example/v1?key=abc', false, /must not contain credentials, a query/],
    ['http://192.168.1.20:11434/v1', true, /refusing to send the LLM API key over plain http to 192\.168\.1\.20:11434/],
  ])('refuses %s', (raw, hasKey, message) => {
    expect(() => chatEndpoint(raw, hasKey)).toThrow(UsageError);
    expect(() => chatEndpoint(raw, hasKey)).toThrow(message);
  });

  it('never quotes the credentials of a refused URL', () => {
    expect(() => chatEndpoint('https://user:hunter2@llm.example/v1', false)).not.toThrow(/hunter2/);
  });
});
