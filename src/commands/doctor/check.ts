/** One line of `agent doctor`: what was checked, what was found, and how to fix it when it is not ok. */
export interface Check {
  name: string;
  status: 'ok' | 'warn' | 'fail';
  detail: string;
  fix?: string;
}

export const ok = (name: string, detail: string): Check => ({ name, status: 'ok', detail });
export const warn = (name: string, detail: string, fix?: string): Check => ({
  name,
  status: 'warn',
  detail,
  ...(fix ? { fix } : {}),
});
export const fail = (name: string, detail: string, fix?: string): Check => ({
  name,
  status: 'fail',
  detail,
  ...(fix ? { fix } : {}),
});
