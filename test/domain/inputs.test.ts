import { describe, expect, it } from 'vitest';
import {
  checkAvatarUrl,
  checkBio,
  checkName,
  checkProfileValue,
  checkThreadId,
  failOn,
  plainName,
  profileFromFlags,
} from '../../src/domain/inputs.js';
import { EXIT, UsageError } from '../../src/errors.js';

describe('checkName: 3-50 characters, no controls', () => {
  it.each([
    ['abc', undefined],
    ['a'.repeat(50), undefined],
    ['日本語', undefined],
    ['🚀🚀🚀', undefined],
    ['ab', '--name must be 3-50 characters (got 2)'],
    ['', '--name must be 3-50 characters (got 0)'],
    ['a'.repeat(51), '--name must be 3-50 characters (got 51)'],
    ['🚀🚀', '--name must be 3-50 characters (got 2)'],
    ['bot\u0007x', '--name must not contain control characters'],
    ['bot\nname', '--name must not contain control characters'],
    ['bot\u007f', '--name must not contain control characters'],
    ['zero\u200bwidth', '--name must not contain invisible characters'],
    ['soft\u00adhyphen', '--name must not contain invisible characters'],
  ])('%j → %j', (name, problem) => {
    expect(checkName(name)).toBe(problem);
  });
});

describe('plainName: the name as it is kept for good', () => {
  it.each([
    ['my-agent', 'my-agent'],
    [' my-agent ', 'my-agent'],
    ['my-agent\u00a0', 'my-agent'],
    ['\u3000my agent\u3000', 'my agent'],
    ['\uff4d\uff59\uff0d\uff41\uff47\uff45\uff4e\uff54', 'my-agent'],
    ['caf\u0065\u0301', 'caf\u00e9'],
    ['日本語', '日本語'],
  ])('%j → %j', (given, plain) => {
    expect(plainName(given)).toBe(plain);
  });
});

describe('checkBio: at most 500 characters', () => {
  it.each([
    ['', undefined],
    ['x'.repeat(500), undefined],
    ['é'.repeat(500), undefined],
    ['x'.repeat(501), '--bio must be at most 500 characters (got 501)'],
  ])('%#', (bio, problem) => {
    expect(checkBio(bio)).toBe(problem);
  });
});

describe('checkAvatarUrl: http(s) only', () => {
  it.each([
    ['https://img.example/a.png', true],
    ['http://img.example/a.png', true],
    ['ftp://img.example/a.png', false],
    ['javascript:alert(1)', false],
    ['data:image/png;base64,AAAA', false],
    ['img.example/a.png', false],
    ['', false],
  ])('%j → ok %s', (url, ok) => {
    const problem = checkAvatarUrl(url);
    if (ok) expect(problem).toBeUndefined();
    else expect(problem).toBe(`--avatar-url must be an http(s) URL (got ${JSON.stringify(url)})`);
  });

  it('quotes hostile input as one clean line', () => {
    expect(checkAvatarUrl('\u001b[31mbad\nurl')).toBe('--avatar-url must be an http(s) URL (got "bad url")');
  });
});

describe('profile values', () => {
  it.each([
    ['signal_method', 'technical', undefined],
    ['signal_method', 'onchain', undefined],
    ['conviction_style', 'degen', undefined],
    ['directional_bias', 'neutral', undefined],
    ['participation', 'selective', undefined],
    [
      'signal_method',
      'astrology',
      '--signal-method must be one of technical, fundamental, sentiment, onchain, macro (got "astrology")',
    ],
    ['conviction_style', 'Bold', '--conviction-style must be one of conservative, moderate, bold, degen (got "Bold")'],
    ['directional_bias', '', '--directional-bias must be one of bullish, bearish, neutral (got "")'],
    ['participation', 'always', '--participation must be one of selective, moderate, active (got "always")'],
  ] as const)('%s %j → %j', (field, value, problem) => {
    expect(checkProfileValue(field, value)).toBe(problem);
  });

  it('profileFromFlags keeps only the flags given', () => {
    expect(profileFromFlags({ signal_method: 'macro', participation: undefined })).toEqual({ signal_method: 'macro' });
    expect(profileFromFlags({})).toEqual({});
  });

  it('profileFromFlags names every bad flag at once', () => {
    expect(() => profileFromFlags({ signal_method: 'x', conviction_style: 'y', directional_bias: 'bullish' })).toThrow(
      /--signal-method must be one of .*; --conviction-style must be one of /,
    );
  });
});

describe('failOn', () => {
  it('does nothing without problems', () => {
    expect(() => failOn([undefined, undefined])).not.toThrow();
  });

  it('throws one UsageError (exit 2) naming every problem, saying nothing was sent', () => {
    try {
      failOn(['first', undefined, 'second']);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(UsageError);
      expect((error as UsageError).exitCode).toBe(EXIT.usage);
      expect((error as UsageError).message).toBe('first; second');
      expect((error as UsageError).hint).toBe('nothing was sent');
    }
  });
});

describe('checkThreadId', () => {
  it.each([
    ['t-1', 't-1'],
    ['  t-1\t', 't-1'],
    ['../x', '../x'],
    ['//evil/x', '//evil/x'],
    ['%2F', '%2F'],
    ['...', '...'],
    ['x'.repeat(200), 'x'.repeat(200)],
  ])('accepts %j as %j (it is sent as one path segment)', (id, checked) => {
    expect(checkThreadId(id)).toBe(checked);
  });

  it.each(['', '   ', '.', '..', ' .. ', 'x'.repeat(201), 'a\u0000b', 'a\u001bb', 'a\u007f'])(
    'refuses %j before anything is sent',
    (id) => {
      expect(() => checkThreadId(id)).toThrow(UsageError);
      expect(() => checkThreadId(id)).toThrow(/^not a thread id: /);
    },
  );
});
