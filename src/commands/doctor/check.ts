import { AgentError } from '../../errors.js';

/** One line of `agent doctor`: what was checked, what was found, and how to fix it when it is not ok. */
export interface Check {
  name: string;
  status: 'ok' | 'warn' | 'fail';
  detail: string;
  fix?: string;
}

/**
 * What a check found, before the list of checks (src/commands/doctor-checks.ts) gives it its name. Every
 * check returns one, or undefined when it has nothing to say here; none throws: an error it meets is
 * what it found (failedCheck).
 */
export type Verdict = Omit<Check, 'name'>;

export const ok = (detail: string): Verdict => ({ status: 'ok', detail });
export const warn = (detail: string, fix?: string): Verdict => ({ status: 'warn', detail, ...(fix ? { fix } : {}) });
export const fail = (detail: string, fix?: string): Verdict => ({ status: 'fail', detail, ...(fix ? { fix } : {}) });

/**
 * An error met while checking, as the check's line: its message after what was looked at (`about`), with
 * the hint one of ours carries as the fix. Anything else is shown whole, its kind included: it is a bug.
 */
export function failedCheck(error: unknown, about = '', status: 'fail' | 'warn' = 'fail'): Verdict {
  const known = error instanceof AgentError;
  const verdict = { status, detail: `${about}${known ? error.message : String(error)}` };
  return known && error.hint ? { ...verdict, fix: error.hint } : verdict;
}
