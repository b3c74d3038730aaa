import { escapeUnsafe, maskKey, sanitize } from './sanitize.js';

/**
 * The secrets registered so far, each masked in any text in every form it can take there (raw,
 * sanitised, folded to one line, JSON-escaped) and in any case: a service that lower-cases what it echoes
 * (a cell name) must not unmask it (key-never-shown).
 */
export class SecretMask {
  private readonly secrets: string[] = [];
  /** Each form folded (foldCase), with the mask written in the same form; longest first. */
  private readonly forms: Array<{ form: string; masked: string }> = [];

  add(secret: string): void {
    if (secret.length < 8 || this.secrets.includes(secret)) return;
    this.secrets.push(secret);
    const masked = maskKey(secret);
    // A key may hold `"` or `\` (or worse): a JSON document writes it escaped, a human line sanitised, a
    // one-line message with its white space folded; each of those forms is masked, the mask written alike.
    const forms = new Map<string, string>([
      [secret, masked],
      [sanitize(secret), sanitize(masked)],
      [folded(secret), folded(masked)],
      [jsonInner(secret), jsonInner(masked)],
    ]);
    for (const [form, mask] of forms) if (form.length >= 8) this.forms.push({ form: foldCase(form), masked: mask });
    // Longest first: a shorter form inside a longer one must not break the longer one up before it is seen.
    this.forms.sort((a, b) => b.form.length - a.form.length);
  }

  redact(text: string): string {
    if (!this.forms.length) return text;
    let out = text;
    let haystack = foldCase(out);
    for (const { form, masked } of this.forms) {
      if (!haystack.includes(form)) continue;
      out = replaceAnyCase(out, haystack, form, masked);
      haystack = foldCase(out);
    }
    return out;
  }
}

/**
 * Lower case, as long as the text: a character whose lower case is longer (U+0130) stays as it is, so
 * that a place in the folded text is the same place in the text.
 */
function foldCase(text: string): string {
  const lower = text.toLowerCase();
  if (lower.length === text.length) return lower;
  return Array.from(text, (c) => (c.toLowerCase().length === c.length ? c.toLowerCase() : c)).join('');
}

/**
 * Every occurrence of `form` (folded) in the text, found in its folded copy `haystack`, replaced. Not a
 * RegExp: a key is whatever the service issued, and a pattern of a very long one overflows the regexp
 * compiler's stack.
 */
function replaceAnyCase(text: string, haystack: string, form: string, masked: string): string {
  let out = '';
  let from = 0;
  for (let at = haystack.indexOf(form); at !== -1; at = haystack.indexOf(form, from)) {
    out += text.slice(from, at) + masked;
    from = at + form.length;
  }
  return out + text.slice(from);
}

/** As `oneLine` writes it, without the cut. */
function folded(text: string): string {
  return sanitize(text).replace(/\s+/g, ' ');
}

/** A string as it appears between the quotes of our JSON output. */
function jsonInner(text: string): string {
  return escapeUnsafe(JSON.stringify(text)).slice(1, -1);
}
