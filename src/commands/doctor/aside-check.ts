import { setAsideBy } from '../../poll/watch-aside.js';
import { type Verdict, fail } from './check.js';

/**
 * An agent `poll --watch --all` set aside: that watcher polls it no more until its state.json or config.json
 * changes, even once the fix is in elsewhere (a key the service takes again, a script made private).
 */
export function asideCheck(configDir: string, isAlive: (pid: number) => boolean): Verdict | undefined {
  const aside = setAsideBy(configDir, { isAlive });
  if (!aside) return undefined;
  return fail(
    `poll --watch --all (pid ${aside.pid}) set this agent aside at ${aside.since} and polls it no more: ${aside.reason}`,
    `fix that; the watcher polls it again once state.json or config.json changes, or restart it (kill ${aside.pid}, then poll --watch --all again)`,
  );
}
