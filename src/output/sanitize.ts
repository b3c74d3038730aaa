// Text from the server or from the user may carry terminal escape sequences (hostile-input): they are removed
// before anything reaches a terminal or a log, and line breaks are folded so one problem is one line.

/**
 * A terminal escape sequence, whole (removing only its ESC would leave "[31m" behind), in its 7-bit and
 * its 8-bit (C1) form: a CSI with its parameters; a string (OSC, and DCS, SOS, PM, APC, which a terminal
 * swallows up to the string terminator) with its payload; any other ESC with its intermediate and final
 * bytes. A string with no terminator loses only its introducer: the text after it stays visible.
 */
// eslint-disable-next-line no-control-regex
export const TERMINAL_ESCAPE =
  /(?:\u001b\[|\u009b)[0-?]*[ -/]*[@-~]|(?:\u001b[\]PX^_]|[\u0090\u0098\u009d-\u009f])[^\u0007\u001b\u0090\u0098\u009c-\u009f]*(?:\u0007|\u001b\\|\u009c)|\u001b[ -/]*[0-~]/g;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/g;

export function sanitize(text: string): string {
  return text.replace(TERMINAL_ESCAPE, '').replace(CONTROL, '');
}

export function oneLine(text: string, max = 300): string {
  const flat = sanitize(text).replace(/\s+/g, ' ').trim();
  const chars = Array.from(flat);
  return chars.length <= max ? flat : `${chars.slice(0, max - 1).join('')}…`;
}

/** `hive_…abcd`: enough to recognise a key, never enough to use it (key-never-shown). */
export function maskKey(key: string): string {
  const underscore = key.indexOf('_');
  const prefix = underscore > 0 && underscore <= 8 ? key.slice(0, underscore + 1) : '';
  if (key.length - prefix.length < 12) return `${prefix}…`;
  return `${prefix}…${key.slice(-4)}`;
}

/**
 * A path in a message: as it is when plainly a path, else in single quotes as a shell would take it, so a
 * space at its end is seen and the path can be copied into a command. A control character (a newline) is
 * shown escaped, as JSON writes it, since one in a message would hide or split it.
 */
export function shownPath(path: string): string {
  if (/^[\w./:=@+,%-]+$/.test(path)) return path;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f-\u009f]/.test(path)) return JSON.stringify(path);
  return `'${path.replaceAll("'", `'\\''`)}'`;
}

// JSON.stringify escapes C0 controls but leaves DEL, C1 (U+009B is CSI to some terminals) and bidi controls
// raw: escaped here too, so a --json document on a terminal is as inert as a human line (hostile-input), and lossless.
// eslint-disable-next-line no-control-regex
const UNSAFE_IN_JSON = /[\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/g;

/** JSON text with what JSON.stringify leaves raw (DEL, C1, bidi controls) escaped as \uXXXX. */
export function escapeUnsafe(json: string): string {
  return json.replace(UNSAFE_IN_JSON, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
