/**
 * One word for /bin/sh, whatever it holds: as it is when it is plainly safe, else in single quotes with
 * each inner quote closed, escaped and reopened.
 */
export function shellWord(text: string): string {
  return /^[\w./:=@+-]+$/.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`;
}

/**
 * The words of a command line `shellWord` wrote (or one as plain): quotes and backslashes taken off. Not a
 * shell: no expansion, and an operator such as `>>` is a word like any other.
 */
export function shellWords(line: string): string[] {
  return (line.match(/(?:'[^']*'|\\.|[^\s'\\])+/g) ?? []).map((word) =>
    word.replace(
      /'([^']*)'|\\(.)/g,
      (_all, quoted: string | undefined, escaped: string | undefined) => quoted ?? escaped ?? '',
    ),
  );
}
