import { describe, expect, it } from 'vitest';
import {
  AuthError,
  BusyError,
  EXIT,
  LockedError,
  NetworkError,
  NotRegisteredError,
  RateLimitedError,
  RedirectError,
  RejectedError,
  ResponseError,
  ServerError,
  StateError,
  TimeoutError,
  UsageError,
} from '../../src/errors.js';
import { reportError } from '../../src/output/report-error.js';
import { makeOutput } from '../support/streams.js';

const KEY = 'hive_0123456789abcdefSECRETKEY';

describe('reportError: each error class → exit code, one line with its hint', () => {
  const cases: Array<[Error, number]> = [
    [new UsageError('bad flag', { hint: 'see --help' }), EXIT.usage],
    [new RejectedError('refused (400)', 400, { hint: 'fix it' }), EXIT.usage],
    [new NotRegisteredError('no agent', { hint: 'run "agent register" first' }), EXIT.notRegistered],
    [new AuthError('key rejected (401)', { hint: 'register' }), EXIT.notRegistered],
    [new LockedError('thread locked', { hint: 'pick another' }), EXIT.locked],
    [new NetworkError('cannot reach', true, { hint: 'later' }), EXIT.temporary],
    [new TimeoutError('too slow', false, { hint: 'later' }), EXIT.temporary],
    [new ServerError('failed (503)', 503, { hint: 'later' }), EXIT.temporary],
    [new RateLimitedError('rate limited', Date.now(), { hint: 'later' }), EXIT.temporary],
    [new ResponseError('odd answer', { hint: 'later' }), EXIT.temporary],
    [new RedirectError('redirect', 307, { hint: 'register again' }), EXIT.unexpected],
    [new StateError('corrupt state', 'corrupt', { hint: 'restore' }), EXIT.unexpected],
  ];

  it.each(cases)('%s', (error, code) => {
    const { output, stdout, stderr } = makeOutput();
    expect(reportError(error, output)).toBe(code);
    expect(stderr.text).toBe(`agent: ${error.message} (${(error as { hint?: string }).hint})\n`);
    expect(stdout.text).toBe('');
  });

  it.each(cases)('--json: %s is also a document on stdout', (error, code) => {
    const { output, stdout, stderr } = makeOutput({ json: true });
    reportError(error, output);
    expect(JSON.parse(stdout.text)).toEqual({ error: { code, message: error.message } });
    expect(stderr.text).toContain(error.message);
  });

  it('an error without a hint has no parentheses', () => {
    const { output, stderr } = makeOutput();
    reportError(new TimeoutError('too slow'), output);
    expect(stderr.text).toBe('agent: too slow\n');
  });

  it('an unknown error is exit 1, called a bug', () => {
    const { output, stderr } = makeOutput();
    expect(reportError(new TypeError('x is undefined'), output)).toBe(EXIT.unexpected);
    expect(stderr.text).toBe(
      'agent: unexpected error: x is undefined (this is a bug; please report it with the output of --verbose)\n',
    );
  });

  it.each([
    ['a string', 'boom'],
    ['undefined', undefined],
    ['an object', { a: 1 }],
  ])('a thrown %s is exit 1', (_what, value) => {
    const { output, stderr } = makeOutput();
    expect(reportError(value, output)).toBe(EXIT.unexpected);
    expect(stderr.text).toMatch(/^agent: unexpected error: /);
  });
});

describe('the stack only with --verbose, and only for a bug', () => {
  it.each([
    [false, false],
    [true, true],
  ])('verbose %s: an unexpected error shows its stack: %s', (verbose, shown) => {
    const { output, stderr } = makeOutput({ verbose });
    reportError(new TypeError('x is undefined'), output);
    expect(stderr.text.includes('    at ')).toBe(shown);
    expect(stderr.text.startsWith('agent: unexpected error: x is undefined')).toBe(true);
  });

  it('an expected error is one line even with --verbose: its stack says nothing the message does not', () => {
    const { output, stderr } = makeOutput({ verbose: true });
    reportError(new ServerError('failed (500)', 500), output);
    expect(stderr.text).toBe('agent: failed (500)\n');
  });

  it('the stack is redacted too', () => {
    const { output, stderr } = makeOutput({ verbose: true });
    output.addSecret(KEY);
    reportError(new Error(`leaked ${KEY}`), output);
    expect(stderr.text).not.toContain(KEY);
    expect(stderr.text).toContain('    at ');
  });
});

describe('messages are one clean line', () => {
  it('control characters and line breaks from server text are removed', () => {
    const { output, stderr } = makeOutput();
    reportError(new RejectedError('refused: \u001b[31mred\u001b[0m\nsecond\u0007 line', 400), output);
    expect(stderr.text).toBe('agent: refused: red second line\n');
  });

  it.each([
    ['a known error', new AuthError(`${'x'.repeat(485)} ${KEY}`)],
    ['an unknown error', new Error(`${'x'.repeat(480)} ${KEY}`)],
  ])('%s: a key where the message is cut is masked, not half printed', (_what, error) => {
    const { output, stdout, stderr } = makeOutput({ json: true });
    output.addSecret(KEY);
    reportError(error, output);
    for (const text of [stdout.text, stderr.text]) expect(text).not.toContain(KEY.slice(0, 8));
  });

  it('a registered key is masked', () => {
    const { output, stdout, stderr } = makeOutput({ json: true });
    output.addSecret(KEY);
    reportError(new AuthError(`invalid key ${KEY}`), output);
    expect(stderr.text + stdout.text).not.toContain(KEY);
    expect(JSON.parse(stdout.text).error.message).toBe('invalid key hive_…TKEY');
  });
});

describe('BusyError', () => {
  // Only poll treats "another run is busy" as success (it renders that itself); anywhere else a person
  // must hear that nothing was done.
  it('is a temporary failure, said with its hint', () => {
    const { output, stderr } = makeOutput({});
    expect(reportError(new BusyError('another run holds it', { hint: 'try again in a moment' }), output)).toBe(
      EXIT.temporary,
    );
    expect(stderr.text).toBe('agent: another run holds it (try again in a moment)\n');
  });
});
