import { existsSync, readFileSync, type Stats, statSync } from 'node:fs';
import { dirname, isAbsolute } from 'node:path';
import { StateError, UsageError } from '../errors.js';
import { type AgentPlace, agentCommand } from '../output/command-hint.js';
import type { RunningUser } from '../state/owner.js';
import { FILE_MODE, refuseLooseMode } from '../state/private-file.js';
import { shownPath } from '../output/sanitize.js';

/**
 * The LLM key from its file: a regular file that only its owner can read (like the state file, key-at-rest), one
 * printable line. Checked at `config set` and again at every use, since modes can change in between.
 */
export function readKeyFile(file: string, place?: AgentPlace & { user?: RunningUser }): string {
  let raw: string;
  try {
    const stat = statSync(file);
    if (!stat.isFile()) throw new UsageError(`llm.key-file ${shownPath(file)} is not a regular file`);
    refuseOthersFile(file, stat, place?.user);
    refuseLooseMode(file, stat, FILE_MODE, 'the LLM key file', 'read the LLM key');
    raw = readFileSync(file, 'utf8');
  } catch (error) {
    if (error instanceof UsageError || error instanceof StateError) throw error;
    // A key pasted where the path belongs must not be printed: the file is named only when it is an
    // absolute path (as config set stores it) in a directory that exists, which a pasted key never is.
    const named = isAbsolute(file) && existsSync(dirname(file)) ? ` ${shownPath(file)}` : '';
    throw new UsageError(`cannot read the LLM key file${named} (${(error as NodeJS.ErrnoException).code ?? 'error'})`, {
      hint: `llm.key-file names a file (mode 600) that holds the key, never the key itself; see "${agentCommand(place, 'config get llm.key-file')}"`,
    });
  }
  const key = raw.trim();
  if (key === '' || !/^[\x21-\x7e]+$/.test(key)) {
    throw new UsageError(
      `the LLM key file ${shownPath(file)} must hold the key alone, on one line of printable characters`,
    );
  }
  return key;
}

/**
 * A key file is the user's own: one that belongs to someone else (a system file such as /etc/passwd, a
 * colleague's) is said to be so, never met with a chmod to run on a file that is not theirs.
 */
function refuseOthersFile(file: string, stat: Stats, user: RunningUser | undefined): void {
  if (user === undefined || stat.uid === user.uid) return;
  const name = (uid: number) => {
    const known = user.nameOf(uid);
    return known === undefined ? `uid ${uid}` : `${known} (uid ${uid})`;
  };
  throw new UsageError(
    `the LLM key file ${shownPath(file)} belongs to ${name(stat.uid)}, not to you (${name(user.uid)}): a key file must be your own, readable by you alone`,
    {
      hint: 'put the key in a file of your own: install -m 600 /dev/null ~/.config/agent-llm.key, then write the key into it',
    },
  );
}
