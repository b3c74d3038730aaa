// Lines for a terminal of a given width: a terminal cuts a long line wherever its edge falls, mid-word;
// these are broken at spaces instead, each continuation indented under its line.

/** A piece of a line drawn in colour (where colour is allowed): its text is sanitised like any other. */
export interface Painted {
  paint: 'red' | 'yellow' | 'cyan';
  text: string;
}

/** One line of a result: plain text, or pieces of which some are painted. */
export type Line = string | ReadonlyArray<string | Painted>;

/** How many columns the line takes (code points: wide scripts are not measured apart). */
export function widthOf(line: Line): number {
  const text =
    typeof line === 'string' ? line : line.map((part) => (typeof part === 'string' ? part : part.text)).join('');
  return Array.from(text).length;
}

/**
 * The lines, each no wider than `columns`: a longer plain line is broken at its spaces, the rest indented
 * by the line's own indent plus four; a word wider than the room left is cut, as nothing else can fit it.
 * Painted lines are drawn to fit by whoever makes them, and pass as they are.
 */
export function fitLines(lines: readonly Line[], columns: number): Line[] {
  return lines.flatMap((line): Line[] => (typeof line === 'string' ? wrapLine(line, columns) : [line]));
}

/** `hang`: the continuation lines' indent (a column of the line's own, say), else the line's indent plus four. */
export function wrapLine(line: string, columns: number, hang?: number): string[] {
  if (Array.from(line).length <= columns) return [line];
  const lead = /^ */.exec(line)?.[0] ?? '';
  const indent = ' '.repeat(Math.min(hang ?? lead.length + 4, Math.floor(columns / 2)));
  const out: string[] = [];
  let current = lead;
  let width = lead.length;
  // Whether the line being filled has a word yet: a break is only made after one.
  let filled = false;
  // Words with the spaces before each, as written: columns padded with spaces keep their alignment.
  for (const [spaces, word] of wordsAfterSpaces(line.slice(lead.length))) {
    let chars = Array.from(word);
    if (filled && width + spaces.length + chars.length > columns) {
      out.push(current);
      current = indent;
      width = indent.length;
      filled = false;
    }
    if (filled) {
      current += spaces;
      width += spaces.length;
    }
    // A word wider than a whole line is cut, as nothing else can fit it.
    while (width + chars.length > columns) {
      const take = columns - width;
      out.push(current + chars.slice(0, take).join(''));
      chars = chars.slice(take);
      current = indent;
      width = indent.length;
    }
    current += chars.join('');
    width += chars.length;
    filled = true;
  }
  out.push(current);
  return out;
}

/** Each word with the spaces before it; spaces after the last word are dropped. */
function* wordsAfterSpaces(text: string): Generator<[string, string]> {
  let spaces = '';
  for (const [part] of text.matchAll(/ +|[^ ]+/g)) {
    if (part.startsWith(' ')) spaces = part;
    else {
      yield [spaces, part];
      spaces = '';
    }
  }
}
