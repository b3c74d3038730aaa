/**
 * What a text says, for checks only (a size, a direction, a link, a key): compatibility forms folded
 * ("１２％" is "12%") and every ignorable character gone, joiners included, so none can split a word
 * that a reader (or the service) would see whole.
 */
export function probeOf(text: string): string {
  return text.normalize('NFKC').replace(/\p{Default_Ignorable_Code_Point}/gu, '');
}

/**
 * Whether a text holds a key, as a reader would find it: in any case (a cell name is lower-cased on the
 * way in, and a key with its case changed gives most of it away) and through the disguises `probeOf` removes.
 */
export function holdsKey(text: string, key: string): boolean {
  return probeOf(text).toLowerCase().includes(probeOf(key).toLowerCase());
}
