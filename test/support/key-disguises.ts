/**
 * Every form a service (or a cut) can give a key in, generated: the forms the masking must find in any
 * text (key-never-shown). Shared by the recogniser's property test and the test of every writer.
 */

/** A disguise: the key (or what is left of it) rewritten as it could arrive. */
export type Disguise = (key: string) => string;

const fullWidth = (text: string) =>
  Array.from(text, (c) => (c > ' ' && c <= '~' ? String.fromCharCode(c.charCodeAt(0) + 0xfee0) : c)).join('');
const escaped = (text: string, every: number) =>
  Array.from(text, (c, i) => (i % every === 1 ? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}` : c)).join('');
const split = (text: string, by: string, every: number) =>
  Array.from(text, (c, i) => (i > 0 && i % every === 0 ? `${by}${c}` : c)).join('');

export const DISGUISES: Record<string, Disguise> = {
  exact: (key) => key,
  'upper case': (key) => key.toUpperCase(),
  'mixed case': (key) => Array.from(key, (c, i) => (i % 2 ? c.toUpperCase() : c.toLowerCase())).join(''),
  'one \\u escape (hiv\\u0065_…)': (key) =>
    `${key.slice(0, 3)}\\u${key.charCodeAt(3).toString(16).padStart(4, '0')}${key.slice(4)}`,
  'every third character \\u escaped': (key) => escaped(key, 3),
  'upper-case \\u escapes': (key) =>
    escaped(key, 3).replace(/\\u([0-9a-f]{4})/g, (_, hex: string) => `\\u${hex.toUpperCase()}`),
  'U+200B inside': (key) => `${key.slice(0, 10)}\u200b${key.slice(10)}`,
  'U+200B every 4': (key) => split(key, '\u200b', 4),
  'word joiner and soft hyphen': (key) => split(key, '\u2060\u00ad', 7),
  'full-width letters': fullWidth,
  'full-width upper case': (key) => fullWidth(key.toUpperCase()),
  'cut to its first 33': (key) => key.slice(0, 33),
  'cut to its first 8': (key) => key.slice(0, 8),
  'cut to its last 8': (key) => key.slice(-8),
  'a middle 8, upper-cased': (key) => key.slice(12, 20).toUpperCase(),
};

/** A text of `length` characters that holds no piece of any key (no letters or digits at all). */
export const filler = (length: number) => '-. '.repeat(length).slice(0, length);
