import { describe, expect, it } from 'vitest';
import {
  AgentError,
  AuthError,
  BusyError,
  EXIT,
  LockedError,
  mayHaveLanded,
  messageOf,
  NetworkError,
  NotRegisteredError,
  RateLimitedError,
  RedirectError,
  RejectedError,
  ResponseError,
  ServerError,
  StateError,
  TemporaryError,
  TimeoutError,
  UsageError,
} from '../src/errors.js';

describe('the error hierarchy', () => {
  it.each([
    [new UsageError('x'), EXIT.usage, 'UsageError'],
    [new RejectedError('x', 400), EXIT.usage, 'RejectedError'],
    [new NotRegisteredError('x'), EXIT.notRegistered, 'NotRegisteredError'],
    [new AuthError('x'), EXIT.notRegistered, 'AuthError'],
    [new LockedError('x'), EXIT.locked, 'LockedError'],
    [new NetworkError('x', true), EXIT.temporary, 'NetworkError'],
    [new TimeoutError('x'), EXIT.temporary, 'TimeoutError'],
    [new ServerError('x', 500), EXIT.temporary, 'ServerError'],
    [new RateLimitedError('x', 0), EXIT.temporary, 'RateLimitedError'],
    [new ResponseError('x'), EXIT.temporary, 'ResponseError'],
    [new RedirectError('x', 307), EXIT.unexpected, 'RedirectError'],
    [new StateError('x', 'io'), EXIT.unexpected, 'StateError'],
    [new BusyError('x'), EXIT.temporary, 'BusyError'],
  ])('%s → exit %i', (error, code, name) => {
    expect(error).toBeInstanceOf(AgentError);
    expect(error.exitCode).toBe(code);
    expect(error.name).toBe(name);
    expect(error instanceof TemporaryError).toBe(code === EXIT.temporary);
  });

  it('keeps the hint and the cause', () => {
    const cause = new Error('root');
    const error = new NetworkError('x', false, { hint: 'h', cause });
    expect(error.hint).toBe('h');
    expect(error.cause).toBe(cause);
    expect(new TimeoutError('x').cause).toBeUndefined();
  });
});

describe('mayHaveLanded: after which failures a POST must not be sent again (never-twice)', () => {
  it.each([
    [new TimeoutError('x'), true],
    [new NetworkError('reset', false), true],
    [new ResponseError('unreadable'), true],
    [new NetworkError('refused', true), false],
    [new ServerError('x', 503), false],
    [new RateLimitedError('x', 0), false],
    [new AuthError('x'), false],
    [new RejectedError('x', 400), false],
    [new LockedError('x'), false],
    [new RedirectError('303 See Other: the POST was processed', 303), true],
    [new RedirectError('307: not handled here', 307), false],
    [new RedirectError('308', 308), false],
    [new RedirectError('301', 301), false],
    [new RedirectError('302', 302), false],
    [new Error('x'), false],
    ['x', false],
  ])('%s → %s', (error, landed) => {
    expect(mayHaveLanded(error)).toBe(landed);
  });
});

describe('messageOf: what any thrown value says', () => {
  it.each([
    [new TypeError('x is not a function'), 'x is not a function'],
    [new UsageError('no such thread'), 'no such thread'],
    ['a library threw a string', 'a library threw a string'],
    [42, '42'],
    [undefined, 'undefined'],
  ])('%s says %s', (thrown, said) => {
    expect(messageOf(thrown)).toBe(said);
  });
});
