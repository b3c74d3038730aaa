import fs from 'node:fs';
import { expect, it } from 'vitest';
import { userNameFromPasswd } from '../../src/state/user-names.js';

it.skipIf(!fs.existsSync('/etc/passwd'))('names a uid from /etc/passwd, and no uid that is not there', () => {
  expect(userNameFromPasswd(0)).toBe('root');
  expect(userNameFromPasswd(2 ** 31 - 3)).toBeUndefined();
});
