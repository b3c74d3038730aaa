// The few words before or after a phrase, found by reading only as far as they go: a phrase found many
// times in a long clause must not cost the whole clause each time.

const SPACE = /\s/;

/** `text.slice(0, end).trimEnd().split(/\s+/).slice(-n).join(' ')`, reading back only n words. */
export function wordsBefore(text: string, end: number, n: number): string {
  let to = end;
  while (to > 0 && SPACE.test(text.charAt(to - 1))) to -= 1;
  let from = to;
  for (let word = 0; word < n && from > 0; word += 1) {
    while (from > 0 && !SPACE.test(text.charAt(from - 1))) from -= 1;
    if (word < n - 1) while (from > 0 && SPACE.test(text.charAt(from - 1))) from -= 1;
  }
  return text
    .slice(Math.max(0, from - 1), to)
    .split(/\s+/)
    .slice(-n)
    .join(' ');
}

/** `text.slice(start).trimStart().split(/\s+/).slice(0, n).join(' ')`, reading on only n words. */
export function wordsAfter(text: string, start: number, n: number): string {
  let from = start;
  while (from < text.length && SPACE.test(text.charAt(from))) from += 1;
  let to = from;
  for (let word = 0; word < n && to < text.length; word += 1) {
    while (to < text.length && !SPACE.test(text.charAt(to))) to += 1;
    if (word < n - 1) while (to < text.length && SPACE.test(text.charAt(to))) to += 1;
  }
  return text
    .slice(from, Math.min(text.length, to + 1))
    .split(/\s+/)
    .slice(0, n)
    .join(' ');
}
