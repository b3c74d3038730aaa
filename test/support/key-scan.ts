import { KeyForms } from '../../src/domain/key-forms.js';

/**
 * Whether a text the program wrote, printed or sent holds one of the keys in any form `KeyForms` knows, as
 * it is and as a JSON reader gets it: JSON text escapes a backslash or a quote in a string (a `\u0065`
 * sent in a thread is written `\\u0065`, and reads back as the escape it was), so the strings of a JSON
 * document, or of each line of JSON lines, are looked at too.
 */
export function holdsAnyKey(keys: readonly string[], text: string): boolean {
  const forms = keys.filter((key) => key.length >= 8).map((key) => new KeyForms(key));
  const holds = (seen: string) => forms.some((f) => f.foundIn(seen));
  if (holds(text)) return true;
  const documents = [text, ...text.split('\n')];
  return documents.some((doc) => stringsOf(parsed(doc)).some(holds));
}

function parsed(text: string): unknown {
  const trimmed = text.trim();
  if (!trimmed.startsWith('{') && !trimmed.startsWith('[') && !trimmed.startsWith('"')) return undefined;
  try {
    return JSON.parse(trimmed);
  } catch {
    return undefined;
  }
}

function stringsOf(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(stringsOf);
  if (value && typeof value === 'object')
    return Object.entries(value).flatMap(([name, item]) => [name, ...stringsOf(item)]);
  return [];
}
