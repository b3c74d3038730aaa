import { describe, expect, it } from 'vitest';
import { DOCTOR_CHECKS } from '../../../src/commands/doctor-checks.js';
import { failedCheck } from '../../../src/commands/doctor/check.js';
import { StateError } from '../../../src/errors.js';

describe('failedCheck: an error a check meets is its line', () => {
  it('one of ours: its message after what was looked at, its hint as the fix', () => {
    const error = new StateError('state.json is open to other users', 'exposed', { hint: 'chmod 600 state.json' });
    expect(failedCheck(error, 'the state: ')).toEqual({
      status: 'fail',
      detail: 'the state: state.json is open to other users',
      fix: 'chmod 600 state.json',
    });
    expect(failedCheck(new StateError('no hint', 'io'), '', 'warn')).toEqual({ status: 'warn', detail: 'no hint' });
  });

  it('anything else is a bug: shown whole, its kind included, with no fix to offer', () => {
    expect(failedCheck(new TypeError('x is not a function'))).toEqual({
      status: 'fail',
      detail: 'TypeError: x is not a function',
    });
    expect(failedCheck('thrown as a string')).toEqual({ status: 'fail', detail: 'thrown as a string' });
  });
});

describe('DOCTOR_CHECKS', () => {
  it('names each line once, and says in one line what each looks at', () => {
    const names = DOCTOR_CHECKS.map((c) => c.name);
    expect(new Set(names).size).toBe(names.length);
    for (const { name, looksAt } of DOCTOR_CHECKS) {
      expect(name, name).toMatch(/^[a-z][a-z ]*$/);
      expect(looksAt, name).not.toMatch(/\n/);
    }
  });
});
