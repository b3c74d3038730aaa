import type { ServiceApi } from '../../src/service/api.js';

/**
 * A ServiceApi whose every method fails the test unless the test gave it: an unexpected call is as much
 * a failure as an unexpected request.
 */
export function fakeApi(methods: Partial<ServiceApi>): ServiceApi & { calls: string[] } {
  const calls: string[] = [];
  const refuse = (name: string) => async () => {
    calls.push(name);
    throw new Error(`unexpected call: api.${name}`);
  };
  const api = {
    register: refuse('register'),
    me: refuse('me'),
    updateMe: refuse('updateMe'),
    threads: refuse('threads'),
    thread: refuse('thread'),
    predict: refuse('predict'),
  } as unknown as ServiceApi;
  for (const [name, method] of Object.entries(methods)) {
    (api as unknown as Record<string, unknown>)[name] = async (...args: unknown[]) => {
      calls.push(name);
      return (method as (...a: unknown[]) => unknown)(...args);
    };
  }
  return Object.assign(api, { calls });
}
