import { KeyForms } from './key-forms.js';

/**
 * What a text says, for checks only (a size, a direction, a link, a key): compatibility forms folded
 * ("１２％" is "12%") and every ignorable character gone, joiners included, so none can split a word
 * that a reader (or the service) would see whole.
 */
export function probeOf(text: string): string {
  return text.normalize('NFKC').replace(/\p{Default_Ignorable_Code_Point}/gu, '');
}

/**
 * Whether a text holds a key, or a piece of one, as a reader would find it: the one rule of `KeyForms`
 * (any case, escaped, folded, split by joiners, cut), so what is refused before sending is what is masked
 * everywhere else.
 */
export function holdsKey(text: string, key: string): boolean {
  let forms = known.get(key);
  if (!forms) {
    forms = new KeyForms(key);
    known.set(key, forms);
  }
  return forms.foundIn(text);
}

/** A few keys per process (its own, an LLM's): their pieces are worked out once. */
const known = new Map<string, KeyForms>();
