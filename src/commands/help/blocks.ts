// A help topic's text as blocks, so that one text serves two readers: a terminal (`agent help <topic>`)
// and the docs (a generated block of Markdown, scripts/docs/). Cells and paragraphs may hold `code` spans:
// both readers show them as written.

export type Table = { table: { head: readonly string[]; rows: ReadonlyArray<readonly string[]> } };
export type Block = { p: string } | { code: string[] } | Table;

/** Columns of a help topic at a terminal: commander's help is as wide. */
export const HELP_COLUMNS = 100;

/** A table's column is kept side by side at a terminal when no cell of it is wider, within SIDE columns. */
const NARROW = 24;
const SIDE = 40;

/** The blocks as a terminal shows them: paragraphs broken at spaces, tables in aligned columns. */
export function toTerminal(blocks: readonly Block[], columns = HELP_COLUMNS): string {
  return `${blocks.map((block) => terminalBlock(block, columns).join('\n')).join('\n\n')}\n`;
}

function terminalBlock(block: Block, columns: number): string[] {
  if ('p' in block) return wrap(block.p, columns, '', '');
  if ('code' in block) return block.code.map((line) => `  ${line}`);
  const { head, rows } = block.table;
  // The leading columns that are narrow in every row stay side by side (within SIDE columns); the others
  // follow, each on lines of its own, named by its heading after the first.
  let side = 0;
  let lead = 2;
  while (side < head.length - 1) {
    const width = Math.max(...rows.map((row) => (row[side] ?? '').length));
    if (width > NARROW || lead + width + 2 > SIDE) break;
    lead += width + 2;
    side++;
  }
  const widths = head.slice(0, side).map((_, i) => Math.max(...rows.map((row) => (row[i] ?? '').length)));
  return rows.flatMap((row) => {
    const cells = row.slice(side).map((cell, i) => {
      const named = side === 0 ? i > 1 || row.length > 2 : i > 0;
      return i === 0 || cell === '' || !named ? cell : `${head[side + i]}: ${cell}`;
    });
    if (side === 0) {
      const [first = '', ...rest] = cells;
      return [
        `  ${first}`,
        ...rest.filter((cell) => cell !== '').flatMap((cell) => wrap(cell, columns, '      ', '      ')),
      ];
    }
    const start = `  ${row
      .slice(0, side)
      .map((cell, i) => cell.padEnd(widths[i] ?? 0))
      .join('  ')}  `;
    const indent = ' '.repeat(lead);
    return cells
      .filter((cell) => cell !== '')
      .flatMap((cell, i) => wrap(cell, columns, i === 0 ? start : indent, indent));
  });
}

/** `text` broken at spaces into lines of at most `columns`, the first led by `first`, the rest by `rest`. */
function wrap(text: string, columns: number, first: string, rest: string): string[] {
  const lines: string[] = [];
  let line = first;
  let filled = false;
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (filled && line.length + 1 + word.length > columns) {
      lines.push(line);
      line = rest;
      filled = false;
    }
    line += filled ? ` ${word}` : word;
    filled = true;
  }
  lines.push(line);
  return lines;
}

/** The blocks as Markdown, for the docs: tables as tables, commands in a fenced block. */
export function toMarkdown(blocks: readonly Block[]): string {
  return blocks
    .map((block) => {
      if ('p' in block) return block.p;
      if ('code' in block) return ['```sh', ...block.code, '```'].join('\n');
      const { head, rows } = block.table;
      const cells = (row: readonly string[]) => `| ${row.map((cell) => cell.replaceAll('|', '\\|')).join(' | ')} |`;
      return [cells(head), `|${head.map(() => '---').join('|')}|`, ...rows.map(cells)].join('\n');
    })
    .join('\n\n');
}
