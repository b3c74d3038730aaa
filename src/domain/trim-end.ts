/**
 * `text` without the run of characters at its end that `drop` (a one-character class) matches. A scan back
 * from the end, where a pattern like /x+$/ would try the run again from each of its characters: on a long
 * run of them, that costs the square of its length.
 */
export function trimEndOf(text: string, drop: RegExp): string {
  let end = text.length;
  while (end > 0 && drop.test(text.charAt(end - 1))) end -= 1;
  return text.slice(0, end);
}
