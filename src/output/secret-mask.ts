import { KeyForms } from '../domain/key-forms.js';
import { maskKey } from './sanitize.js';

/**
 * The secrets registered so far, each masked in any text wherever `KeyForms` finds it: in any case,
 * JSON-escaped, folded, split by joiners, or cut to a piece of FRAGMENT characters or more
 * (key-never-shown). The rule is the one `holdsKey` applies before sending.
 */
export class SecretMask {
  private readonly secrets = new Map<string, { forms: KeyForms; masked: string }>();

  add(secret: string): void {
    if (secret.length < 8 || this.secrets.has(secret)) return;
    // The mask goes where the key was, in a JSON string as in a line: only characters that need no escape.
    const shown = maskKey(secret);
    this.secrets.set(secret, {
      forms: new KeyForms(secret),
      masked: /^[\w.\u2026-]*$/u.test(shown) ? shown : '\u2026',
    });
  }

  redact(text: string): string {
    let out = text;
    for (const { forms, masked } of this.secrets.values()) out = forms.mask(out, masked);
    return out;
  }
}

/**
 * Every string in a value (a record, a JSON document, what stats made of many) masked, names included;
 * the rest as it is. String by string, not on the JSON text, whose syntax a key could straddle: a key
 * ending in `"` matched the closing quote of its string, and the mask cut the document.
 */
export function maskStrings<T>(value: T, redact: (text: string) => string): T {
  if (typeof value === 'string') return redact(value) as T;
  if (Array.isArray(value)) return value.map((item) => maskStrings(item, redact)) as T;
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([name, item]) => [redact(name), maskStrings(item, redact)]),
  ) as T;
}
