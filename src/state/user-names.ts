import { readFileSync } from 'node:fs';

/**
 * The login name of a uid from /etc/passwd, for messages only: read when a message needs it, never on a
 * normal run. Undefined where there is no such file or no such uid (a name from a directory service).
 */
export function userNameFromPasswd(uid: number): string | undefined {
  let passwd: string;
  try {
    passwd = readFileSync('/etc/passwd', 'utf8');
  } catch {
    return undefined;
  }
  for (const line of passwd.split('\n')) {
    const [name, , id] = line.split(':');
    if (name && id === String(uid)) return name;
  }
  return undefined;
}
