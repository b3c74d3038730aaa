import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { baseUrlText, isLoopbackHost, parseBaseUrl, pathSegment } from '../../src/http/origin.js';

describe('parseBaseUrl', () => {
  const accepted: Array<[string, string]> = [
    ['https://svc.example', 'https://svc.example'],
    ['https://svc.example/', 'https://svc.example'],
    ['  https://svc.example/api/v1//  ', 'https://svc.example/api/v1'],
    ['https://SVC.Example:8443/x', 'https://svc.example:8443/x'],
    ['http://localhost:3000', 'http://localhost:3000'],
    ['http://127.0.0.1:8080/', 'http://127.0.0.1:8080'],
    ['http://127.5.6.7', 'http://127.5.6.7'],
    ['http://[::1]:9000', 'http://[::1]:9000'],
  ];
  it.each(accepted)('accepts %j as %j', (raw, text) => {
    expect(baseUrlText(parseBaseUrl(raw))).toBe(text);
  });

  const refused: Array<[string, RegExp]> = [
    ['not a url', /not a URL/],
    ['', /not a URL/],
    ['ftp://svc.example', /must be http\(s\)/],
    ['file:///etc/passwd', /must be http\(s\)/],
    ['http://svc.example', /refusing plain http to svc\.example/],
    ['http://10.0.0.1', /refusing plain http/],
    ['http://localhost.evil.example', /refusing plain http/],
    ['http://127.0.0.1.evil.example', /refusing plain http/],
    ['https://user:pass@svc.example', /credentials, a query or a fragment/],
    ['https://svc.example/?a=1', /credentials, a query or a fragment/],
    ['https://svc.example/#x', /credentials, a query or a fragment/],
  ];
  it.each(refused)('refuses %j', (raw, message) => {
    expect(() => parseBaseUrl(raw)).toThrow(UsageError);
    expect(() => parseBaseUrl(raw)).toThrow(message);
  });
});

describe('isLoopbackHost', () => {
  it.each([
    ['localhost', true],
    ['LOCALHOST', true],
    ['127.0.0.1', true],
    ['[::1]', true],
    ['::1', true],
    ['127.0.0.1.nip.io', false],
    ['128.0.0.1', false],
    ['0.0.0.0', false],
    ['example.com', false],
  ])('%s → %s', (host, loopback) => {
    expect(isLoopbackHost(host)).toBe(loopback);
  });
});

describe('pathSegment', () => {
  it.each([
    ['abc', 'abc'],
    ['../x', '..%2Fx'],
    ['//evil/x', '%2F%2Fevil%2Fx'],
    ['%2F', '%252F'],
    ['?q#f', '%3Fq%23f'],
    ['...', '%2E%2E%2E'],
    ['a.b', 'a.b'],
  ])('%j → %j', (id, segment) => {
    expect(pathSegment(id)).toBe(segment);
    // The segment survives the URL parser unchanged and alone.
    expect(new URL(`https://h/thread/${segment}`).pathname).toBe(`/thread/${segment}`);
  });

  it.each(['.', '..', '', '\ud800', 'a\udfffb'])('refuses %j, which cannot be sent as one segment', (id) => {
    expect(() => pathSegment(id)).toThrow(UsageError);
  });
});
