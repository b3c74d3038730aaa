import { describe, expect, it } from 'vitest';
import { expandHome, userPath } from '../../src/domain/home-path.js';

describe('expandHome: a leading ~ is the home directory, as a shell reads it', () => {
  it.each([
    ['~', '/home/me', '/home/me'],
    ['~/', '/home/me', '/home/me/'],
    ['~/.config/a', '/home/me', '/home/me/.config/a'],
    ['~/a', '/home/me/', '/home/me/a'],
    ['~', '/', '/'],
    ['~/a', '/', '/a'],
    // Only a shell knows whose home ~name is; inside a path a ~ is a plain character.
    ['~other/a', '/home/me', '~other/a'],
    ['/srv/~/a', '/home/me', '/srv/~/a'],
    ['a/~', '/home/me', 'a/~'],
  ])('%s with HOME=%s is %s', (path, home, expanded) => {
    expect(expandHome(path, home)).toBe(expanded);
  });

  it('refuses a ~ when there is no HOME to put there (exit 2)', () => {
    for (const home of [undefined, '']) {
      expect(() => expandHome('~/a', home)).toThrow(expect.objectContaining({ exitCode: 2 }));
    }
    expect(expandHome('/abs', undefined)).toBe('/abs');
  });

  it('userPath is absolute', () => {
    expect(userPath('rel/dir', '/home/me')).toBe(`${process.cwd()}/rel/dir`);
    expect(userPath('~/x/../y', '/home/me')).toBe('/home/me/y');
  });
});
