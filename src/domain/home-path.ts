import { resolve } from 'node:path';
import { UsageError } from '../errors.js';
import { trimEndOf } from './trim-end.js';

/**
 * A path as the user meant it when no shell expanded it (quoted, after "=" as in `--config-dir=~/a`, from an
 * environment file or a crontab line): a leading `~` or `~/` is the home directory, as a shell would read it.
 * `~name` is left as it is: only a shell knows whose home that names.
 */
export function expandHome(path: string, home: string | undefined): string {
  if (path !== '~' && !path.startsWith('~/')) return path;
  if (!home) {
    throw new UsageError(`${JSON.stringify(path)} starts with "~", but HOME is not set`, {
      hint: 'give the full path',
    });
  }
  const base = trimEndOf(home, /\//);
  return path === '~' ? base || '/' : `${base}${path.slice(1)}`;
}

/** A path the user gave, `~` expanded, as the absolute path every message and file names (cron runs elsewhere). */
export function userPath(path: string, home: string | undefined): string {
  return resolve(expandHome(path, home));
}
