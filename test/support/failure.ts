import type { AgentError } from '../../src/errors.js';

/** The error a promise fails with; the test fails if it succeeds instead. */
export async function failure(promise: Promise<unknown>): Promise<AgentError> {
  try {
    await promise;
  } catch (error) {
    return error as AgentError;
  }
  throw new Error('expected the call to fail');
}
