import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { refuseUnverifiedTls } from '../../src/http/tls-check.js';

describe('refuseUnverifiedTls', () => {
  it('refuses https while Node is told to accept any certificate, naming the fix', () => {
    const error = (() => {
      try {
        refuseUnverifiedTls(new URL('https://service.example'), { NODE_TLS_REJECT_UNAUTHORIZED: '0' }, 'the API key');
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).message).toContain('the API key could go to whoever poses as service.example');
    expect((error as UsageError).hint).toContain('NODE_EXTRA_CA_CERTS');
  });

  // Node turns the checks off for the exact value "0" only: anything else leaves them on.
  it.each([undefined, '1', '', 'false', ' 0'])('lets https through with NODE_TLS_REJECT_UNAUTHORIZED=%j', (value) => {
    expect(() =>
      refuseUnverifiedTls(new URL('https://service.example'), { NODE_TLS_REJECT_UNAUTHORIZED: value }, 'the API key'),
    ).not.toThrow();
  });

  it('leaves loopback http alone: no TLS, no certificate to check', () => {
    expect(() =>
      refuseUnverifiedTls(new URL('http://127.0.0.1:8080'), { NODE_TLS_REJECT_UNAUTHORIZED: '0' }, 'the API key'),
    ).not.toThrow();
  });
});
