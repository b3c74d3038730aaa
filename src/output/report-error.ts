import { AgentError, EXIT, type ExitCode, messageOf } from '../errors.js';
import { type AgentPlace, placed } from './command-hint.js';
import type { Output } from './output.js';
import { oneLine } from './sanitize.js';

/**
 * The one place where an error becomes what the user sees and the exit code (docs/cli.md): one line with a
 * hint on stderr, the same as a JSON document on stdout with --json, the stack of a bug only with --verbose.
 */
export function reportError(error: unknown, output: Output, place?: AgentPlace): ExitCode {
  const known = error instanceof AgentError;
  const code: ExitCode = known ? error.exitCode : EXIT.unexpected;
  // Redacted before the cut: a key cut in half would no longer be recognised and masked (key-never-shown).
  const message = known
    ? oneLine(output.redact(error.message), 500)
    : `unexpected error: ${oneLine(output.redact(messageOf(error)), 500)}`;
  // A hint's command acts on the agent this command was given, as typed (--agent, --config-dir).
  const hint = known
    ? error.hint && placed(error.hint, place)
    : 'this is a bug; please report it with the output of --verbose';
  output.error(`agent: ${message}${hint ? ` (${hint})` : ''}`);
  // An error of ours says all there is in its message; a stack helps only to report a bug.
  if (output.verbose && !known && error instanceof Error && error.stack) output.error(error.stack);
  if (output.json) output.jsonDocument({ error: { code, message } });
  return code;
}
