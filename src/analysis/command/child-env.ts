import { KeyForms } from '../../domain/key-forms.js';
// A user's analyzer is code we did not write: it gets the user's environment (PATH, HOME, its own
// settings) but never a key of ours, neither the service key nor the LLM key, whatever the variable
// holding it is called.

const ALWAYS_REMOVED = new Set(['AGENT_LLM_API_KEY']);
const REDACTED = '[redacted]';

/** Secrets worth looking for: an empty one would match every value and every text. */
function usable(secrets: readonly string[]): string[] {
  return secrets.filter((s) => s !== '');
}

/**
 * A copy of `env` without AGENT_LLM_API_KEY and without any variable whose value contains a secret.
 * Names are compared in upper case because Windows treats them so.
 */
export function childEnvironment(
  env: Readonly<Record<string, string | undefined>>,
  secrets: readonly string[],
): Record<string, string> {
  const keys = usable(secrets);
  const copy: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || ALWAYS_REMOVED.has(name.toUpperCase())) continue;
    if (keys.some((key) => value.includes(key))) continue;
    copy[name] = value;
  }
  return copy;
}

/**
 * Text from the analyzer with any secret replaced, in case a script found a key elsewhere (a file) and
 * printed it: it must not reach a post, a trace or the terminal.
 */
export function redact(text: string, secrets: readonly string[]): string {
  let clean = text;
  for (const key of usable(secrets)) clean = new KeyForms(key).mask(clean, REDACTED);
  return clean;
}
