// Text from the server or from the user may carry terminal escape sequences (S4): they are removed
// before anything reaches a terminal or a log, and line breaks are folded so one problem is one line.
// eslint-disable-next-line no-control-regex
const ANSI = /\u001b(?:\[[0-?]*[ -/]*[@-~]|\][^\u0007\u001b]*(?:\u0007|\u001b\\)|[@-Z\\-_])/g;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/g;

export function sanitize(text: string): string {
  return text.replace(ANSI, '').replace(CONTROL, '');
}

export function oneLine(text: string, max = 300): string {
  const flat = sanitize(text).replace(/\s+/g, ' ').trim();
  const chars = Array.from(flat);
  return chars.length <= max ? flat : `${chars.slice(0, max - 1).join('')}…`;
}

/** `hive_…abcd`: enough to recognise a key, never enough to use it (S3). */
export function maskKey(key: string): string {
  const underscore = key.indexOf('_');
  const prefix = underscore > 0 && underscore <= 8 ? key.slice(0, underscore + 1) : '';
  if (key.length - prefix.length < 12) return `${prefix}…`;
  return `${prefix}…${key.slice(-4)}`;
}
