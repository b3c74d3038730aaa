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

/** The error a call throws; the test fails if it returns instead. */
export function thrown(run: () => unknown): Error {
  try {
    run();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected the call to throw');
}
